// Package server speaks the Azure Table service's REST API over HTTP in
// front of a tstable backend (normally the local bbolt file), path-style as
// the emulators do: http://127.0.0.1:10002/ACCOUNT/TABLE(...). The Azure
// SDKs, Storage Explorer and plain HTTP clients can use it as they use the
// service.
//
// Every rule of the service (names, types, limits, ETags, batches) is the
// store's; this package only translates HTTP to store calls and back: the
// entity JSON is odata's codec, $filter is odata's parser, paging is the
// store's own. Each query is explained live: a line on the log, and the
// x-tstable-query-class, x-tstable-scanned and x-tstable-returned headers
// on the response.
//
// Authentication plugs in through Authorizer; without one every request is
// allowed. CORS follows the rules set with Set Table Service Properties
// (Options.CORSAnyOrigin answers every origin instead), and a table SAS
// naming a stored access policy is checked against the table's ACL.
//
// A batch's body is cut into its operations in one pass over its bytes
// (changeset.go), exactly where mime/multipart would cut it; a body the
// one pass is not sure of is read with mime/multipart, so every body is
// accepted or refused as that reading does (FuzzSplitChangeset holds the
// two together).
//
// The answers are the service's own, status, headers and bodies: the
// replay test (replay_test.go) holds them to the real service's recorded
// answers, testdata/replay. An error's message is the service's sentence
// for its code (servicetext.go, the one table of them), its RequestId and
// Time, then tstable's own message on a last line.
package server
