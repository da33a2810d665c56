// Package auth authenticates requests to tstable's table service (tstable
// serve) as Azure Table Storage and its emulators do, and says what each
// request may do.
//
// A Verifier answers for one account (for the emulators', WellKnownAccount
// and WellKnownKey). Its Authorize takes a request and returns a Grant, or
// the coded error the service answers a refused request with. The server
// then asks the Grant, per operation (and per operation of a batch),
// whether it is allowed (Allows, or Check for the coded refusal), and
// narrows queries by its KeyRange (or ODataRange). Preflight and
// AddCORSHeaders let browser apps call the server.
//
// # Credentials
//
// SharedKey and SharedKeyLite (Authorization: SharedKey account:signature)
// are HMAC-SHA256 signatures, under the base64-decoded account key, of the
// Table service's string-to-sign:
//
//	SharedKey:     VERB \n Content-MD5 \n Content-Type \n Date \n CanonicalizedResource
//	SharedKeyLite: Date \n CanonicalizedResource
//
// The Azure SDKs for Go and JavaScript sign SharedKeyLite; the one for
// Python signs SharedKey.
//
// Date is x-ms-date when the request has it, else Date, and must be within
// 15 minutes of the server's clock. CanonicalizedResource is "/" + account
// + the path as sent (still percent-encoded), plus "?comp=" + the comp
// parameter when there is one and no other parameter. With path-style
// URLs the path itself starts with the account, so the account appears
// twice (/devstoreaccount1/devstoreaccount1/Tables), as the SDKs sign and
// Azurite checks. Unlike the blob and queue services there are no
// canonicalized x-ms- headers.
//
// An account SAS (sv, ss, srt, sp, st, se, sip, spr, sig) is checked with
// the account SAS string-to-sign of its version (signedEncryptionScope
// from 2020-12-06 on), must include the table service (ss containing t),
// and grants by resource type and permission:
//
//	query tables            srt c, sp l
//	create table            srt c, sp a, c or w
//	delete table            srt c, sp d
//	read/query entities     srt o, sp r
//	insert entity           srt o, sp a
//	update/merge entity     srt o, sp u    (an upsert needs a and u)
//	delete entity           srt o, sp d
//	service properties      srt s, sp r to get (and stats), w to set
//
// A table SAS (tn, sp of r a u d, st, se, spk, srk, epk, erk, sig) is
// checked with the table SAS string-to-sign (canonical name
// /table/account/tablename, lowercased), and grants the entities of its
// table only (compared without regard to case), within its key range when
// it has one: writes and point reads must name keys inside it, and queries
// are narrowed to it (a point read of the entity whose keys are both empty
// looks like a query to Allows; check it with InRange). A table SAS naming
// a stored access policy (si) takes from it the start, expiry and
// permissions it does not give itself (each from one of the two, never
// both); the policies come with the request's context (WithPolicies), so
// a policy changed or removed applies at once. Neither kind of SAS may
// read or set a table's access policy. Start and expiry are checked
// against the time given to Authorize; spr=https requires TLS; sip is
// checked against the client's address (r.RemoteAddr). A SAS parameter
// given twice is refused.
//
// A bearer token (Authorization: Bearer …), a Microsoft Entra ID access
// token, is taken only from a Verifier set to OAuthBasic (tstable serve
// --oauth basic, Azurite's name), over HTTPS only, with x-ms-version
// 2017-11-09 or later, and when it is:
//
//   - a well-formed JWT: three base64url parts, a JSON header naming its
//     algorithm (alg), a JSON object of claims;
//   - within its lifetime: exp (required) and nbf (when present) against
//     the server's clock, with 5 minutes' skew either way, the default of
//     the token validation whose messages the service returns;
//   - for a storage audience (aud, or one of them): https://storage.azure.com
//     (with or without its slash), the storage application id
//     e406a681-f3d4-42a8-90b6-c2b029497af1, the account's table endpoint
//     (https://ACCOUNT.table.core.windows.net and the sovereign clouds'), or
//     the account's URL on this server (https://HOST/ACCOUNT, HOST as the
//     client reached it);
//   - from an Entra ID issuer (iss): https://sts.windows.net/TENANT/ (v1)
//     or https://login.microsoftonline.com/TENANT/v2.0 (v2), or the
//     sovereign clouds' hosts of either.
//
// Its signature is not checked: tstable has no network and no identity
// provider's keys, so anyone can mint a token it takes. Nor are its
// tenant, scopes or roles: a token grants the whole account. It is for
// running code written for Microsoft Entra ID, not for security.
//
// A request with no credentials is refused with 403 AuthenticationFailed:
// the table service has no anonymous access, and a 403 that says so is
// clearer to a developer than the 404 ResourceNotFound some services use
// to hide what exists.
//
// # Errors
//
// Refusals are odata coded errors with HTTP status 403 and one of the codes
// AuthenticationFailed (who sent it could not be established: signature,
// account, date, SAS times and form, a bearer token), AuthorizationFailure
// (a table SAS used beyond its table or key range),
// AuthorizationPermissionMismatch, AuthorizationResourceTypeMismatch,
// AuthorizationServiceMismatch, AuthorizationProtocolMismatch and
// AuthorizationSourceIPMismatch; a malformed CORS preflight is 400
// InvalidCorsHeaderValue. A bearer token refused for what it says
// (form, lifetime, audience, issuer) is answered as the service answers
// the request's version: 403 AuthenticationFailed before 2019-12-12 (the
// Go and JavaScript SDKs send 2019-02-02), from then on a *ChallengeError:
// 401 InvalidAuthenticationInfo with the header
//
//	WWW-Authenticate: Bearer authorization_uri=https://login.microsoftonline.com/TENANT/oauth2/authorize resource_id=https://storage.azure.com
//
// naming the token's tenant. Messages carry the service's detail
// ("Lifetime validation failed. The token is expired.", "Audience
// validation failed. Audience did not match.", …) and say what to check;
// a signature mismatch shows the string the server signed, never the key.
package auth
