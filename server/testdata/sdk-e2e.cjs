// End-to-end test of tstable serve through the Azure SDK for JavaScript
// (@azure/data-tables). Run by server/js_test.go (make test-serve-js) with
// TSTABLE_CONNECTION_STRING set and NODE_PATH pointing at the SDK. With
// TSTABLE_TOKEN=1 (against tstable serve --tls --oauth basic, its
// certificate in NODE_EXTRA_CA_CERTS) the clients are built as an app
// written for Microsoft Entra ID builds them: the account URL and a
// TokenCredential.
"use strict";
const assert = require("node:assert/strict");
const { TableServiceClient, TableClient, odata, generateTableSas, AzureNamedKeyCredential, AzureSASCredential } = require("@azure/data-tables");

const cs = process.env.TSTABLE_CONNECTION_STRING;
const useToken = process.env.TSTABLE_TOKEN === "1";
const opts = useToken ? {} : { allowInsecureConnection: true };
const csParts = Object.fromEntries(cs.split(";").filter(Boolean).map((p) => [p.slice(0, p.indexOf("=")), p.slice(p.indexOf("=") + 1)]));

// tokenCredential mints access tokens shaped as Microsoft Entra ID issues
// them for storage (not signed by it: tstable serve --oauth basic does
// not check signatures). over changes claims; lifetime is in seconds.
function tokenCredential(over = {}, lifetime = 3600) {
  const b64 = (v) => Buffer.from(JSON.stringify(v)).toString("base64url");
  return {
    async getToken(scopes, options) {
      assert.deepEqual([].concat(scopes), ["https://storage.azure.com/.default"]);
      const now = Math.floor(Date.now() / 1000);
      const tenant = options?.tenantId || "00000000-0000-0000-0000-00000000e5e5";
      const claims = { aud: "https://storage.azure.com", iss: `https://sts.windows.net/${tenant}/`, tid: tenant, iat: now - 60, nbf: now - 60, exp: now + lifetime, ...over };
      const token = `${b64({ alg: "RS256", typ: "JWT" })}.${b64(claims)}.${Buffer.from("not signed").toString("base64url")}`;
      return { token, expiresOnTimestamp: (now + Math.max(lifetime, 60)) * 1000 };
    },
  };
}
let passed = 0;
let failed = 0;

async function check(name, fn) {
  try {
    await fn();
    passed++;
    console.log(`ok   ${name}`);
  } catch (err) {
    failed++;
    console.log(`FAIL ${name}\n     ${(err && err.stack) || err}`);
  }
}

async function expectError(promise, status, code) {
  try {
    await promise;
  } catch (err) {
    assert.equal(err.statusCode, status, `status of ${err.message}`);
    // The SDK keeps the service's code in the x-ms-error-code header, or
    // (in a transaction) on the error itself.
    const got = err.code ?? err.response?.headers?.get("x-ms-error-code");
    if (code) assert.equal(got, code, `code of ${err.message}`);
    return err;
  }
  assert.fail(`expected a ${status} ${code || ""} error`);
}

async function names(svc, filter) {
  const out = [];
  for await (const t of svc.listTables(filter ? { queryOptions: { filter } } : undefined)) out.push(t.name);
  return out;
}

async function main() {
  const url = csParts.TableEndpoint;
  const svc = useToken ? new TableServiceClient(url, tokenCredential(), opts) : TableServiceClient.fromConnectionString(cs, opts);
  const table = useToken ? new TableClient(url, "Everything", tokenCredential(), opts) : TableClient.fromConnectionString(cs, "Everything", opts);
  console.log(useToken ? `TokenCredential at ${url}` : `connection string to ${url}`);

  if (useToken) {
    await check("tokens the service refuses: 403 AuthenticationFailed, or (2020-12-06) a 401 bearer challenge", async () => {
      const expired = new TableServiceClient(url, tokenCredential({}, -600), opts);
      let err = await expectError(expired.createTable("Refused"), 403, "AuthenticationFailed");
      assert.match(err.message, /The token is expired/);
      const foreign = new TableClient(url, "Refused", tokenCredential({ aud: "https://vault.azure.net" }), opts);
      err = await expectError(foreign.createTable(), 403, "AuthenticationFailed");
      assert.match(err.message, /Audience did not match/);
      const issuer = new TableClient(url, "Refused", tokenCredential({ iss: "https://accounts.example.com/" }), opts);
      await expectError(issuer.createEntity({ partitionKey: "a", rowKey: "b" }), 403, "AuthenticationFailed");
      const newer = new TableServiceClient(url, tokenCredential({}, -600), { ...opts, version: "2020-12-06" });
      err = await expectError(newer.createTable("Refused"), 401, "InvalidAuthenticationInfo");
      assert.match(err.response.headers.get("www-authenticate"), /^Bearer authorization_uri=https:\/\/login\.microsoftonline\.com\/[^/]+\/oauth2\/authorize resource_id=https:\/\/storage\.azure\.com$/);
      assert.ok(!(await names(svc)).includes("Refused"));
    });
    await check("a plain-HTTP endpoint is refused by the SDK itself for a token", async () => {
      const plain = new TableServiceClient(url.replace("https://", "http://"), tokenCredential(), opts);
      await assert.rejects(plain.createTable("Refused"), /non-TLS|https/);
    });
  }

  await check("create, list and delete tables", async () => {
    await svc.createTable("Everything");
    await svc.createTable("Scratch");
    await svc.createTable("Scratch"); // the SDK lets an existing table be
    const all = await names(svc);
    assert.ok(all.includes("Everything") && all.includes("Scratch"), all.join(","));
    assert.deepEqual(await names(svc, odata`TableName eq ${"Scratch"}`), ["Scratch"]);
    await svc.deleteTable("Scratch");
    assert.ok(!(await names(svc)).includes("Scratch"));
  });

  const when = new Date("2014-08-22T00:50:32.123Z");
  const entity = {
    partitionKey: "types",
    rowKey: "o'brien 1",
    Name: "Zoë 'quoted'",
    Age: -42,
    Big: BigInt("9007199254740993"),
    Ratio: 2.5,
    Whole: { value: "3", type: "Double" },
    Active: true,
    Hired: when,
    Id: { value: "6f9619ff-8b86-d011-b42d-00cf4fc964ff", type: "Guid" },
    Badge: new Uint8Array([0, 1, 2, 255]),
    Small: { value: "7", type: "Int32" },
  };

  await check("every Edm type round-trips", async () => {
    const created = await table.createEntity(entity);
    assert.ok(created.etag && created.etag.startsWith('W/"datetime'), created.etag);
    const got = await table.getEntity("types", "o'brien 1");
    assert.equal(got.Name, "Zoë 'quoted'");
    assert.equal(got.Age, -42);
    assert.equal(got.Big, BigInt("9007199254740993"));
    assert.equal(got.Ratio, 2.5);
    assert.equal(got.Whole, 3);
    assert.equal(got.Active, true);
    assert.equal(got.Hired.toISOString(), when.toISOString());
    assert.deepEqual(got.Id, { value: "6f9619ff-8b86-d011-b42d-00cf4fc964ff", type: "Guid" });
    assert.deepEqual(Array.from(got.Badge), [0, 1, 2, 255]);
    assert.equal(got.Small, 7);
    assert.equal(got.etag, created.etag);
    assert.ok(got.timestamp);
    await expectError(table.createEntity(entity), 409, "EntityAlreadyExists");
  });

  await check("update, merge, upsert and delete with ETags", async () => {
    const before = await table.getEntity("types", "o'brien 1");
    const merged = await table.updateEntity({ partitionKey: "types", rowKey: "o'brien 1", Age: 43 }, "Merge", { etag: before.etag });
    let got = await table.getEntity("types", "o'brien 1");
    assert.equal(got.Age, 43);
    assert.equal(got.Name, "Zoë 'quoted'");
    assert.equal(got.etag, merged.etag);
    // A stale ETag is refused, and changes nothing.
    await expectError(table.updateEntity({ partitionKey: "types", rowKey: "o'brien 1", Age: 1 }, "Replace", { etag: before.etag }), 412, "UpdateConditionNotSatisfied");
    await expectError(table.deleteEntity("types", "o'brien 1", { etag: before.etag }), 412, "UpdateConditionNotSatisfied");
    assert.equal((await table.getEntity("types", "o'brien 1")).Age, 43);
    await table.updateEntity({ partitionKey: "types", rowKey: "o'brien 1", Only: "this" }, "Replace");
    got = await table.getEntity("types", "o'brien 1");
    assert.equal(got.Only, "this");
    assert.equal(got.Name, undefined);
    await table.upsertEntity({ partitionKey: "types", rowKey: "new", A: 1 }, "Merge");
    await table.upsertEntity({ partitionKey: "types", rowKey: "new", B: 2 }, "Merge");
    await table.upsertEntity({ partitionKey: "types", rowKey: "new2", A: 1 }, "Replace");
    got = await table.getEntity("types", "new");
    assert.equal(got.A, 1);
    assert.equal(got.B, 2);
    await table.deleteEntity("types", "new");
    await table.deleteEntity("types", "new2");
    await expectError(table.getEntity("types", "new"), 404, "ResourceNotFound");
    await expectError(table.updateEntity({ partitionKey: "types", rowKey: "missing", A: 1 }, "Merge", { etag: "*" }), 404, "ResourceNotFound");
  });

  await check("transactions: one that commits, one that fails whole", async () => {
    const ok = await table.submitTransaction([
      ["create", { partitionKey: "tx", rowKey: "1", N: 1 }],
      ["create", { partitionKey: "tx", rowKey: "2", N: 2 }],
      ["upsert", { partitionKey: "tx", rowKey: "3", N: 3 }, "Replace"],
    ]);
    assert.equal(ok.status, 202);
    assert.equal(ok.subResponses.length, 3);
    const err = await expectError(
      table.submitTransaction([
        ["create", { partitionKey: "tx", rowKey: "4", N: 4 }],
        ["create", { partitionKey: "tx", rowKey: "2", N: 2 }],
        ["delete", { partitionKey: "tx", rowKey: "1" }],
      ]),
      409,
      "EntityAlreadyExists",
    );
    assert.match(err.message, /^1:/);
    await expectError(table.getEntity("tx", "4"), 404, "ResourceNotFound");
    assert.equal((await table.getEntity("tx", "1")).N, 1);
    await table.submitTransaction([
      ["update", { partitionKey: "tx", rowKey: "1", N: 10 }, "Merge"],
      ["delete", { partitionKey: "tx", rowKey: "2" }],
    ]);
    assert.equal((await table.getEntity("tx", "1")).N, 10);
    await expectError(table.getEntity("tx", "2"), 404);
  });

  await check("listEntities: odata filters and paging through several pages", async () => {
    for (let b = 0; b < 25; b++) {
      const actions = [];
      for (let i = 0; i < 100; i++) {
        const n = b * 100 + i;
        actions.push(["create", { partitionKey: `page${b % 5}`, rowKey: String(n).padStart(5, "0"), N: n, Even: n % 2 === 0, At: new Date(Date.UTC(2020, 0, 1) + n * 1000) }]);
      }
      await table.submitTransaction(actions);
    }
    let pages = 0;
    let count = 0;
    for await (const page of table.listEntities({ queryOptions: { filter: odata`PartitionKey ge ${"page"} and PartitionKey lt ${"pagf"}` } }).byPage({ maxPageSize: 1000 })) {
      pages++;
      assert.ok(page.length <= 1000, `a page of ${page.length}`);
      count += page.length;
    }
    assert.equal(count, 2500);
    assert.ok(pages >= 3, `${pages} pages`);
    const sel = [];
    for await (const e of table.listEntities({ queryOptions: { filter: odata`PartitionKey eq ${"page2"} and N ge ${1200} and Even eq ${true}`, select: ["N"] } })) sel.push(e);
    assert.equal(sel.length, 150);
    assert.ok(sel.every((e) => e.N >= 1200 && e.N % 2 === 0 && e.Even === undefined));
    const after = new Date(Date.UTC(2020, 0, 1) + 2490 * 1000);
    const late = [];
    for await (const e of table.listEntities({ queryOptions: { filter: odata`At gt ${after}` } })) late.push(e.N);
    assert.deepEqual(late.sort((a, b) => a - b), [2491, 2492, 2493, 2494, 2495, 2496, 2497, 2498, 2499]);
    const small = [];
    for await (const page of table.listEntities({ queryOptions: { filter: odata`PartitionKey eq ${"page0"}` } }).byPage({ maxPageSize: 7 })) {
      small.push(page.length);
      if (small.length === 3) break;
    }
    assert.deepEqual(small, [7, 7, 7]);
    await expectError(table.listEntities({ queryOptions: { filter: "N eq" } }).next(), 400, "InvalidInput");
  });

  await check("service properties, statistics and access policies", async () => {
    const props = await svc.getProperties();
    assert.ok(props.hourMetrics);
    await svc.setProperties({ cors: [{ allowedOrigins: "*", allowedMethods: "GET", allowedHeaders: "*", exposedHeaders: "*", maxAgeInSeconds: 10 }] });
    assert.equal((await svc.getProperties()).cors.length, 1);
    // Statistics come from the secondary endpoint only, as the service's.
    await expectError(svc.getStatistics(), 400, "InvalidQueryParameterValue");
    const secondary = TableServiceClient.fromConnectionString(cs.replace("/devstoreaccount1;", "/devstoreaccount1-secondary;"), opts);
    assert.equal((await secondary.getStatistics()).geoReplication.status, "live");
    await table.setAccessPolicy([{ id: "readers", accessPolicy: { permission: "r", start: new Date(), expiry: new Date(Date.now() + 3600e3) } }]);
    const acl = await table.getAccessPolicy();
    assert.equal(acl[0].id, "readers");
    assert.equal(acl[0].accessPolicy.permission, "r");
  });

  await check("a table SAS scoped to one partition: reads inside, finds nothing outside, refused for writes", async () => {
    const parts = csParts;
    const cred = new AzureNamedKeyCredential(parts.AccountName, parts.AccountKey);
    const sas = generateTableSas("Everything", cred, {
      permissions: { query: true },
      expiresOn: new Date(Date.now() + 3600e3),
      startPartitionKey: "page0",
      endPartitionKey: "page0",
    });
    const scoped = new TableClient(parts.TableEndpoint, "Everything", new AzureSASCredential(sas), opts);
    let inside = 0;
    for await (const e of scoped.listEntities({ queryOptions: { filter: odata`PartitionKey eq ${"page0"}` } })) {
      assert.equal(e.partitionKey, "page0");
      inside++;
    }
    assert.ok(inside > 0, "no entity read inside the range");
    // Outside the range an entity is not found, as the service answers.
    await expectError(scoped.getEntity("tx", "1"), 404, "ResourceNotFound");
    await expectError(scoped.createEntity({ partitionKey: "page0", rowKey: "sas-write" }), 403);
  });

  await check("delete the table", async () => {
    await svc.deleteTable("Everything");
    await expectError(table.getEntity("tx", "1"), 404, "TableNotFound");
  });

  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
