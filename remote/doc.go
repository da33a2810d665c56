// Package remote is tstable's second storage backend: Azure Table Storage,
// Azurite or the Cosmos DB Table API, reached through the Azure SDK for
// Go's aztables client. It implements backend.Backend, so every command works
// on it unchanged: the service's errors become the same *odata.Error values
// the local store returns, its entities the same odata.Entity values, and
// its continuation headers the same opaque tokens.
//
// What the service cannot report is not invented: QueryResult.Scanned is
// -1 (unknown). Where Azurite and Cosmos DB differ from the service (Cosmos
// does not return results in key order; Azurite skips some limits), the
// local store keeps the service's rules and tstable says so.
package remote
