// Package repair is tstable check and tstable recover: it reads a
// database file that may be damaged page by page, trusting nothing in it,
// and says what is wrong (Check) or copies what can still be read into a
// new file (Recover).
//
// It reads the file only through package boltfile (bbolt's pages, read
// with pread) and the stored bytes only through package values, never
// through the engine: a damaged file is what the engine cannot be trusted
// to read. The walk of the file (damagewalk.go) finds the newest state the
// pages hold when no header can say (states.go), the tables' dictionaries
// page by page and from the copies in the header (checkshapes.go), and,
// for Recover, the leaf pages no tree leads to and the table each belongs
// to (recover.go, recoverdict.go). Check says, for a sound file, what the
// loss of each page would cost (checkcost.go).
//
// It does not import the store, which opens the damaged file (holding
// the lock that keeps writers out) and hands it here, and which makes the
// new file Recover writes: a Target, whose loads keep each entity's
// Timestamp.
package repair
