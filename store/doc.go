// Package store is tstable's storage layer: the Backend interface every
// command talks to, the typed errors that carry the service's error codes,
// and the local implementation, a single bbolt file that holds many tables
// with the full semantics of Azure Table Storage.
package store
