package design

import "github.com/tstable/tstable/odata"

// Nearness: an entity is reported as near a limit from 90% of it on, so a
// design is warned before writes start to fail, not after.
const (
	nearEntityBytes = odata.MaxEntityBytes * 9 / 10
	nearValueBytes  = odata.MaxValueBytes * 9 / 10
	// nearProperties is 90% of 252 rounded up: 227 properties or more.
	nearProperties = (odata.MaxProperties*9 + 9) / 10
)

// maxExamples is how many example keys a finding shows.
const maxExamples = 3

// limitScan counts entities near the service's size limits.
type limitScan struct {
	big, wide, long int64
	bigEx, wideEx   []odata.Key
	longEx          []valueRef
	maxValue        int
	maxValueAt      valueRef
	biggest, widest int64
}

// valueRef names one property of one entity.
type valueRef struct {
	Key      odata.Key
	Property string
	Bytes    int
}

func (l *limitScan) add(e *odata.Entity, size int64, props int, longest int, longestName string) {
	key := odata.Key{PartitionKey: e.PartitionKey, RowKey: e.RowKey}
	if size >= nearEntityBytes {
		l.big++
		if len(l.bigEx) < maxExamples {
			l.bigEx = append(l.bigEx, key)
		}
	}
	l.biggest = max(l.biggest, size)
	if props >= nearProperties {
		l.wide++
		if len(l.wideEx) < maxExamples {
			l.wideEx = append(l.wideEx, key)
		}
	}
	l.widest = max(l.widest, int64(props))
	if longest >= nearValueBytes {
		l.long++
		if len(l.longEx) < maxExamples {
			l.longEx = append(l.longEx, valueRef{key, longestName, longest})
		}
	}
	if longest > l.maxValue {
		l.maxValue = longest
		l.maxValueAt = valueRef{key, longestName, longest}
	}
}
