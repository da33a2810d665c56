// Command bare is the Go runtime's start-up alone: it writes one entity's
// JSON line it already holds and exits.
package main

import "os"

const line = `{"PartitionKey":"p00500","RowKey":"0000500000","Name":"name0488123","Age":38}` + "\n"

func main() { os.Stdout.WriteString(line) }
