package server

import (
	"slices"
	"time"

	"github.com/tstable/tstable/odata"
)

// serviceVersions are the versions of the storage services' REST API
// (x-ms-version), as published, newest first. A request naming another
// version is refused as the service refuses it, 400 InvalidHeaderValue;
// but a well-formed version later than the newest here is taken, so that
// an SDK newer than this tstable still works against it.
var serviceVersions = []string{
	"2026-06-06", "2026-04-06", "2026-02-06", "2025-11-05", "2025-07-05", "2025-05-05", "2025-01-05",
	"2024-11-04", "2024-08-04", "2024-05-04", "2024-02-04", "2023-11-03", "2023-08-03", "2023-01-03",
	"2022-11-02", "2021-12-02", "2021-10-04", "2021-08-06", "2021-06-08", "2021-04-10", "2021-02-12",
	"2020-12-06", "2020-10-02", "2020-08-04", "2020-06-12", "2020-04-08", "2020-02-10", "2019-12-12",
	"2019-10-10", "2019-07-07", "2019-02-02", "2018-11-09", "2018-03-28", "2017-11-09", "2017-07-29",
	"2017-04-17", "2016-05-31", "2015-12-11", "2015-07-08", "2015-04-05", "2015-02-21", "2014-02-14",
	"2013-08-15", "2012-02-12", "2011-08-18", "2009-09-19", "2009-07-17", "2009-04-14",
}

// checkVersion refuses an x-ms-version the service would not take.
func checkVersion(v string) error {
	if v == "" || slices.Contains(serviceVersions, v) {
		return nil
	}
	if _, err := time.Parse(time.DateOnly, v); err == nil && v > serviceVersions[0] {
		return nil
	}
	return errorf(odata.CodeInvalidHeaderValue, "x-ms-version %.40q is not a version of the service's API: send one such as %s (the SDKs send theirs)", v, DefaultVersion)
}
