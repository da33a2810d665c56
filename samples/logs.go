package samples

import (
	"fmt"
	"hash/fnv"
	"iter"
	"time"

	"github.com/tstable/tstable/odata"
)

// logs holds the same events twice, in the two designs the guide contrasts:
//
//   - LogsByDate: the append-only design. PartitionKey is the day
//     ("2024-03-01"), RowKey the event's time in ticks (19 digits) and its
//     number: every event written now goes to today's partition.
//   - LogsSpread: the spread design. PartitionKey is a hashed prefix and the
//     source ("07_web"), 16 shards a source, so concurrent writes land on
//     many partitions; RowKey is the inverted ticks (max ticks − event
//     ticks, 19 digits) and the number, so a partition reads newest first
//     (the log-tail pattern).
func logs() Dataset {
	return Dataset{
		Name:        "logs",
		Summary:     "the same events twice: date as PartitionKey (LogsByDate, append-only) and hashed shards with inverted-ticks RowKeys (LogsSpread, log tail)",
		DefaultSize: 2000,
		SizeUnit:    "events",
		tables: func(size int) []Table {
			return []Table{
				{Name: "LogsByDate", Entities: logEntities(size, false)},
				{Name: "LogsSpread", Entities: logEntities(size, true)},
			}
		},
	}
}

// Log shards and sources.
const logShards = 16

var (
	logSources = []string{"api", "auth", "billing", "web"}
	logLevels  = []string{"Info", "Info", "Info", "Info", "Warning", "Error"}
	logActions = []string{"login", "logout", "checkout", "search", "upload", "refresh"}
)

// logStart is the first event's time; events follow over ten days.
var logStart = time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)

func logEntities(size int, spread bool) iter.Seq[*odata.Entity] {
	return func(yield func(*odata.Entity) bool) {
		r := newRand(2) // both tables draw the same events
		width := digits(size, 6)
		step := 10 * 24 * time.Hour / time.Duration(max(size, 1))
		for n := 1; n <= size; n++ {
			at := logStart.Add(time.Duration(n-1)*step + time.Duration(r.IntN(int(step/time.Millisecond)+1))*time.Millisecond)
			ticks := odata.TicksOf(at)
			src := pick(r, logSources)
			level := pick(r, logLevels)
			action := pick(r, logActions)
			dur := int32(1 + r.IntN(900))
			e := &odata.Entity{}
			if spread {
				h := fnv.New32a()
				fmt.Fprintf(h, "%d", n)
				e.PartitionKey = fmt.Sprintf("%02d_%s", h.Sum32()%logShards, src)
				e.RowKey = fmt.Sprintf("%019d_%0*d", odata.MaxDateTimeTicks-ticks, width, n)
			} else {
				e.PartitionKey = at.Format("2006-01-02")
				e.RowKey = fmt.Sprintf("%019d_%0*d", ticks, width, n)
			}
			e.Set("EventTime", odata.DateTime(at))
			e.Set("Source", odata.String(src))
			e.Set("Level", odata.String(level))
			e.Set("Message", odata.String(fmt.Sprintf("%s %s by user %d", action, outcome(level), 1000+r.IntN(9000))))
			e.Set("DurationMs", odata.Int32(dur))
			if !yield(e) {
				return
			}
		}
	}
}

func outcome(level string) string {
	switch level {
	case "Error":
		return "failed"
	case "Warning":
		return "was slow"
	}
	return "succeeded"
}
