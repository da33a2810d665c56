#!/usr/bin/env node
// tstable's launcher: runs the tstable binary of this platform, which npm
// installed from the optional dependency tstable-PLATFORM-ARCH (no
// download at install time, no postinstall script), with the arguments,
// standard streams and exit status passed through, and Ctrl-C and SIGTERM
// passed on so that tstable serve stops cleanly.
"use strict";

const { spawn } = require("node:child_process");
const path = require("node:path");

const platforms = ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "win32-x64", "win32-arm64"];

function binaryPath() {
  const key = `${process.platform}-${process.arch}`;
  const pkg = `tstable-${key}`;
  const exe = process.platform === "win32" ? "tstable.exe" : "tstable";
  try {
    return path.join(path.dirname(require.resolve(`${pkg}/package.json`)), "bin", exe);
  } catch {
    if (!platforms.includes(key)) {
      console.error(`tstable: no binary for ${key}; the npm package has ${platforms.join(", ")}. ` +
        "Build it with Go instead: go install github.com/tstable/tstable/cmd/tstable@latest");
    } else {
      console.error(`tstable: the package ${pkg}, which holds the binary for ${key}, is not installed. ` +
        "It is an optional dependency of tstable: install again without --omit=optional (or --no-optional), " +
        "and keep the lock file's entry for it.");
    }
    process.exit(1);
  }
}

const child = spawn(binaryPath(), process.argv.slice(2), { stdio: "inherit", windowsHide: true });
const signals = ["SIGINT", "SIGTERM", "SIGHUP"];
for (const sig of signals) {
  process.on(sig, () => child.kill(sig));
}
child.on("error", (err) => {
  console.error(`tstable: cannot run ${binaryPath()}: ${err.message}`);
  process.exit(1);
});
child.on("exit", (code, signal) => {
  if (signal) {
    for (const sig of signals) process.removeAllListeners(sig);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code === null ? 1 : code);
});
