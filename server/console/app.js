// tstable console: the tables, their entities, a query box with the
// key-space picture, the log of the queries applications make and the
// heat of a table's partitions. Everything it shows is in the URL:
// ?table=T&filter=F&select=S&top=N, ?view=log, ?view=heat&table=T.
// With authentication on, requests are signed with the account key
// (SharedKeyLite, HMAC-SHA256 by WebCrypto), kept in session storage only.
"use strict";

const API_VERSION = "2019-02-02";
const KEY_ITEM = "tstable.console.key";
let info = { account: "devstoreaccount1", auth: true };
let logTimer = 0;

const $ = (sel) => document.querySelector(sel);

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) e.setAttribute(k, v === true ? "" : v);
  }
  for (const k of kids) if (k !== null && k !== undefined) e.append(k);
  return e;
}

// keyOf reads the account key from a key or a connection string.
function keyOf(text) {
  text = text.trim();
  const m = /(?:^|;)\s*AccountKey=([^;]+)/i.exec(text);
  return m ? m[1].trim() : text;
}

function b64ToBytes(b64) {
  const s = atob(b64);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

// sign returns the headers of a request to path signed SharedKeyLite:
// x-ms-date \n /account/path.
async function sign(path) {
  const date = new Date().toUTCString();
  const headers = { "x-ms-date": date, "x-ms-version": API_VERSION, "Accept": "application/json;odata=nometadata" };
  const key = sessionStorage.getItem(KEY_ITEM);
  if (!info.auth || !key) return headers;
  const k = await crypto.subtle.importKey("raw", b64ToBytes(key), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const sts = date + "\n/" + info.account + path;
  const sig = new Uint8Array(await crypto.subtle.sign("HMAC", k, new TextEncoder().encode(sts)));
  headers["Authorization"] = "SharedKeyLite " + info.account + ":" + btoa(String.fromCharCode(...sig));
  return headers;
}

// call fetches path?query signed, and returns the response and its JSON.
async function call(path, params) {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(params || {})) if (v !== undefined && v !== "") qs.set(k, v);
  const url = path + (qs.toString() ? "?" + qs.toString() : "");
  const r = await fetch(url, { headers: await sign(path), credentials: "same-origin" });
  let body = null;
  try { body = await r.json(); } catch (e) { body = null; }
  if (!r.ok) {
    const msg = body && body["odata.error"] ? body["odata.error"].code + ": " + body["odata.error"].message.value : r.status + " " + r.statusText;
    const err = new Error(msg);
    err.status = r.status;
    throw err;
  }
  return { r, body };
}

// api is the path of a console endpoint, under the account.
function api(name) { return "/" + info.account + "/-/console/api/" + name; }

function params() { return new URLSearchParams(location.search); }

function go(search) {
  history.pushState(null, "", "/" + (search ? "?" + search : ""));
  route();
}

function fail(main, err) {
  main.append(el("p", { class: "error", role: "alert", text: String(err.message || err) }));
  if (err.status === 403 && info.auth) main.append(keyForm("The key was refused. Enter the account key again."));
}

// keyForm asks for the account key or a connection string.
function keyForm(why) {
  const ta = el("textarea", { id: "key", name: "key", "aria-label": "account key or connection string", autocomplete: "off", spellcheck: "false" });
  return el("form", { class: "keyform", onsubmit: (e) => {
      e.preventDefault();
      sessionStorage.setItem(KEY_ITEM, keyOf(ta.value));
      route();
    } },
    el("h1", { text: "Sign in to " + info.account }),
    el("p", { text: why || "This server checks every request against the account key. Enter the key, or a connection string holding it: it stays in this tab's session storage and signs the console's requests." }),
    ta, el("p", {}, el("button", { type: "submit", text: "Open the console" })));
}

function needKey() { return info.auth && !sessionStorage.getItem(KEY_ITEM); }

async function route() {
  clearInterval(logTimer);
  const main = $("#main");
  main.replaceChildren();
  $("#forget").hidden = !info.auth || !sessionStorage.getItem(KEY_ITEM);
  if (needKey()) {
    main.append(keyForm());
    $("#key").focus();
    return;
  }
  const p = params();
  const view = p.get("view");
  try {
    if (view === "log") await showLog(main);
    else if (view === "heat" && p.get("table")) await showHeat(main, p.get("table"));
    else if (p.get("table")) await showTable(main, p);
    else await showTables(main);
  } catch (err) {
    fail(main, err);
  }
}

async function showTables(main) {
  document.title = "tables · tstable console";
  main.append(el("h1", { text: "Tables" }));
  const { body } = await call(api("tables"));
  if (!body.length) { main.append(el("p", { class: "muted", text: "No tables yet." })); return; }
  const tb = el("tbody");
  for (const t of body) {
    tb.append(el("tr", {},
      el("td", {}, el("a", { href: "/?table=" + encodeURIComponent(t.name), text: t.name })),
      el("td", { class: "num", text: t.entities.toLocaleString("en") }),
      el("td", { class: "num", text: t.partitions.toLocaleString("en") }),
      el("td", {}, el("a", { href: "/?view=heat&table=" + encodeURIComponent(t.name), text: "heat" }))));
  }
  main.append(el("table", { id: "tables" }, el("thead", {}, el("tr", {}, el("th", { text: "table" }), el("th", { class: "num", text: "entities" }), el("th", { class: "num", text: "partitions" }), el("th", { text: "" }))), tb));
}

// showTable is a table's entities, a page at a time, under the query box;
// with a filter, the query's class, counts and key-space picture.
async function showTable(main, p, next) {
  const table = p.get("table");
  document.title = table + " · tstable console";
  const filter = p.get("filter") || "", select = p.get("select") || "", top = p.get("top") || "";
  const fIn = el("input", { id: "filter", name: "filter", value: filter, size: 60, "aria-label": "$filter" });
  const sIn = el("input", { id: "select", name: "select", value: select, size: 40, "aria-label": "$select" });
  const tIn = el("input", { id: "top", name: "top", value: top, size: 6, inputmode: "numeric", "aria-label": "$top" });
  main.append(el("h1", { text: table }),
    el("form", { class: "query", onsubmit: (e) => {
        e.preventDefault();
        const q = new URLSearchParams({ table });
        if (fIn.value) q.set("filter", fIn.value);
        if (sIn.value) q.set("select", sIn.value);
        if (tIn.value) q.set("top", tIn.value);
        go(q.toString());
      } },
      el("label", { for: "filter", text: "$filter" }), fIn,
      el("label", { for: "select", text: "$select" }), sIn,
      el("label", { for: "top", text: "$top" }), tIn,
      el("span"), el("span", {}, el("button", { type: "submit", text: "Run" }), " ", el("a", { href: "/?view=heat&table=" + encodeURIComponent(table), text: "heat" }))));
  const out = el("section", { id: "result", "aria-live": "polite" });
  main.append(out);
  await page(out, table, { $filter: filter, $select: select, $top: top || "20" }, filter !== "" || top !== "");
}

async function page(out, table, q, explain, next) {
  out.replaceChildren();
  const path = "/" + info.account + "/" + encodeURIComponent(table) + "()";
  const { r, body } = await call(path, Object.assign({}, q, next || {}));
  const cls = r.headers.get("x-tstable-query-class"), scanned = r.headers.get("x-tstable-scanned"), returned = r.headers.get("x-tstable-returned");
  out.append(el("p", { class: "summary", id: "summary" },
    el("span", { class: "class", id: "class", text: (cls || "").replace("-", " ") }),
    " · scanned " + scanned + " · returned " + returned));
  if (explain) {
    const pic = el("div", { class: "picture", id: "picture" });
    out.append(pic);
    call(api("explain"), { table, filter: q.$filter, top: q.$top }).then(({ body }) => {
      pic.innerHTML = body.svg; // built by the server from escaped text, no script
      pic.append(el("p", { class: "muted", text: body.reason }), el("p", { text: body.advice }));
    }).catch((err) => fail(pic, err));
  }
  out.append(entitiesTable(body.value || []));
  const pk = r.headers.get("x-ms-continuation-NextPartitionKey");
  const rk = r.headers.get("x-ms-continuation-NextRowKey");
  if (pk) {
    out.append(el("div", { class: "pager" }, el("button", { type: "button", id: "next", text: "Next page",
      onclick: () => page(out, table, q, false, { NextPartitionKey: pk, NextRowKey: rk || "" }) })));
  }
}

function entitiesTable(rows) {
  if (!rows.length) return el("p", { class: "muted", text: "No entities." });
  const cols = ["PartitionKey", "RowKey"];
  for (const row of rows) for (const k of Object.keys(row)) if (!k.includes("@odata") && !cols.includes(k) && k !== "Timestamp" && !k.startsWith("odata.")) cols.push(k);
  const tb = el("tbody");
  for (const row of rows) tb.append(el("tr", {}, ...cols.map((c) => el("td", { text: row[c] === undefined ? "" : String(row[c]) }))));
  return el("table", { id: "entities" }, el("thead", {}, el("tr", {}, ...cols.map((c) => el("th", { text: c })))), tb);
}

async function showLog(main) {
  document.title = "log · tstable console";
  main.append(el("h1", { text: "Queries, newest first" }),
    el("p", { class: "muted", text: "The queries applications make through this server, as they arrive. Select one to draw it." }));
  const box = el("section", { id: "log", "aria-live": "polite" });
  main.append(box);
  let seen = -1;
  const tick = async () => {
    try {
      const { body } = await call(api("log"));
      if (body.total === seen) return;
      seen = body.total;
      const tb = el("tbody");
      for (const q of body.queries) {
        const open = () => {
          const s = new URLSearchParams({ table: q.table });
          if (q.filter) s.set("filter", q.filter);
          go(s.toString());
        };
        tb.append(el("tr", { class: "link", tabindex: "0", onclick: open, onkeydown: (e) => { if (e.key === "Enter") open(); } },
          el("td", { text: new Date(q.time).toLocaleTimeString() }), el("td", { text: q.table }),
          el("td", {}, el("code", { text: q.filter || "(no filter)" })), el("td", { text: q.class.replace("-", " ") }),
          el("td", { class: "num", text: q.scanned }), el("td", { class: "num", text: q.returned }), el("td", { class: "num", text: q.ms.toFixed(1) })));
      }
      box.replaceChildren(body.queries.length ? el("table", { id: "queries" }, el("thead", {}, el("tr", {},
        ...["time", "table", "filter", "class", "scanned", "returned", "ms"].map((h, i) => el("th", { class: i > 3 ? "num" : null, text: h })))), tb)
        : el("p", { class: "muted", text: "No query yet." }));
    } catch (err) {
      clearInterval(logTimer);
      fail(box, err);
    }
  };
  await tick();
  logTimer = setInterval(tick, 1000);
}

async function showHeat(main, table) {
  document.title = "heat of " + table + " · tstable console";
  const { body } = await call(api("heat"), { table });
  main.append(el("h1", { text: "Heat of " + table }),
    el("p", { class: "muted", text: "Entities each partition served and took since " + new Date(body.since).toLocaleString() +
      ", against the service's targets: about " + body.partitionTarget.toLocaleString("en") + " entities a second for one partition, " +
      body.accountTarget.toLocaleString("en") + " requests a second for the account (busiest second so far: " + body.accountPeak + ")." }));
  const pic = el("div", { class: "picture", id: "picture" });
  pic.innerHTML = body.svg;
  main.append(pic);
  for (const t of body.text) main.append(el("p", { class: "hot", text: t }));
  const tb = el("tbody");
  for (const p of body.partitions) {
    tb.append(el("tr", { class: p.hot ? "hot" : "" }, el("td", { text: p.partitionKey }), el("td", { class: "num", text: p.reads }),
      el("td", { class: "num", text: p.writes }), el("td", { class: "num", text: p.peak }), el("td", { text: p.hot ? "hot" : "" })));
  }
  main.append(el("h2", { text: "Partitions, busiest first" }), body.partitions.length
    ? el("table", { id: "partitions" }, el("thead", {}, el("tr", {}, ...["partition", "reads", "writes", "busiest second", ""].map((h, i) => el("th", { class: i > 0 && i < 4 ? "num" : null, text: h })))), tb)
    : el("p", { class: "muted", text: "No traffic yet." }));
  if (body.advice && body.advice.queries) {
    const ul = el("ul", { id: "advice" });
    for (const q of body.advice.queries) {
      if (q.proposal) ul.append(el("li", {}, el("code", { text: q.filter }), " — " + q.proposal.text));
    }
    main.append(el("h2", { text: "Proposals for the logged queries" }), ul.children.length ? ul : el("p", { class: "muted", text: "The logged queries are already point or range queries." }));
  }
}

async function start() {
  try {
    const r = await fetch("/-/console/info");
    info = await r.json();
  } catch (e) { /* keep the defaults */ }
  $("#account").textContent = info.account + (info.auth ? "" : " · no auth");
  $("#forget").addEventListener("click", () => { sessionStorage.removeItem(KEY_ITEM); route(); });
  document.addEventListener("click", (e) => {
    const a = e.target.closest("a");
    if (a && a.origin === location.origin && a.pathname === "/" && !e.ctrlKey && !e.metaKey) {
      e.preventDefault();
      go(a.search.slice(1));
    }
  });
  window.addEventListener("popstate", route);
  route();
}

start();
