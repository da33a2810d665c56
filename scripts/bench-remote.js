// Loads a JSONL file of entities into a table with the Azure SDK for
// JavaScript (@azure/data-tables): transactions of up to 100 entities of
// one partition, 8 in flight, as tstable copy sends them. Prints entities/s.
// Usage: node bench-remote.js CONNECTION_STRING TABLE FILE
const fs = require("fs");
const readline = require("readline");
const { TableClient } = require("@azure/data-tables");

async function main() {
  const [cs, table, file] = process.argv.slice(2);
  const client = TableClient.fromConnectionString(cs, table, { allowInsecureConnection: true });
  await client.createTable();
  const groups = [];
  let group = [];
  const rl = readline.createInterface({ input: fs.createReadStream(file) });
  const start = Date.now();
  let n = 0;
  const inflight = new Set();
  const send = async (g) => {
    const p = client.submitTransaction(g.map((e) => ["upsert", e, "Replace"]));
    inflight.add(p);
    p.finally(() => inflight.delete(p));
    if (inflight.size >= 8) await Promise.race(inflight);
  };
  for await (const line of rl) {
    if (!line) continue;
    const raw = JSON.parse(line);
    const e = {};
    for (const [k, v] of Object.entries(raw)) {
      if (k.endsWith("@odata.type")) continue;
      const t = raw[k + "@odata.type"];
      e[k] = t && t !== "Edm.String" ? { value: String(v), type: t.slice(4) } : v;
    }
    if (group.length && (group.length === 100 || group[0].partitionKey !== e.PartitionKey)) {
      await send(group);
      group = [];
    }
    e.partitionKey = e.PartitionKey; e.rowKey = e.RowKey;
    delete e.PartitionKey; delete e.RowKey;
    group.push(e);
    n++;
  }
  if (group.length) await send(group);
  await Promise.all(inflight);
  const secs = (Date.now() - start) / 1000;
  console.log(`${n} ${secs.toFixed(3)} ${Math.round(n / secs)}`);
}
main().catch((e) => { console.error(e.message); process.exit(1); });
