// Package auth authenticates requests to tstable's table service (tstable
// serve) as Azure Table Storage and its emulators do, and says what each
// request may do.
//
// A Verifier answers for one account (for the emulators', WellKnownAccount
// and WellKnownKey). Its Authorize takes a request signed with the account
// key (SharedKey or SharedKeyLite, by the Table service's string-to-sign)
// and returns a Grant, or the coded error the service answers a refused
// request with.
package auth
