package remote

import (
	"context"
	"errors"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/tstable/tstable/odata"
)

var (
	// Compiled on first use, not at every start of the program.
	codeRE  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"code"\s*:\s*"([A-Za-z]+)"`) })
	indexRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"value"\s*:\s*"(\d+):([^"]*)"`) })
	valueRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"value"\s*:\s*"([^"]*)"`) })
	// ownRE finds the last line tstable serve writes after the service's
	// sentence, RequestId and Time: its own message, JSON-escaped.
	ownRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\\ntstable: ((?:[^"\\]|\\.)*)"`) })
)

// mapError turns an error of the SDK into the *odata.Error the local store
// would return for the same refusal: the same code, status and wording
// about the table and keys, and never a secret.
func mapError(err error, table string, key *odata.Key) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	var re *azcore.ResponseError
	if !errors.As(err, &re) {
		// No answer from the service: a wrong endpoint, no network.
		return odata.Errorf(odata.CodeServiceUnreachable, "cannot reach the table service: %s", Scrub(firstLine(err.Error())))
	}
	text := err.Error()
	code := re.ErrorCode
	if code == "" {
		if m := codeRE().FindStringSubmatch(text); m != nil {
			code = m[1]
		}
	}
	index := -1
	detail := ""
	if m := indexRE().FindStringSubmatch(text); m != nil { // a batch: "3:The specified entity already exists."
		index, _ = strconv.Atoi(m[1])
		detail = m[2]
	} else if m := valueRE().FindStringSubmatch(text); m != nil {
		detail = m[1]
	}
	detail = strings.TrimSpace(strings.SplitN(detail, "\\n", 2)[0])
	if m := ownRE().FindStringSubmatch(text); m != nil { // a tstable server's own words
		if own, err := strconv.Unquote(`"` + m[1] + `"`); err == nil {
			detail = own
		}
	}
	if code == "" {
		code = codeForStatus(re.StatusCode)
	}
	e := odata.Errorf(odata.Code(code), "%s", Scrub(message(odata.Code(code), table, key, detail)))
	if index >= 0 {
		return odata.AtIndex(e, index)
	}
	return e
}

// message words a refusal as the local store words it.
func message(code odata.Code, table string, key *odata.Key, detail string) string {
	k := describeKey(key)
	switch code {
	case odata.CodeTableNotFound:
		return "table " + strconv.Quote(table) + " does not exist (tstable table list shows the tables)"
	case odata.CodeTableAlreadyExists:
		return "table " + strconv.Quote(table) + " already exists"
	case odata.CodeEntityAlreadyExists:
		if k != "" {
			return "entity " + k + " already exists; use upsert or replace to change it"
		}
	case odata.CodeResourceNotFound:
		if k != "" {
			return "entity " + k + " does not exist"
		}
	case odata.CodeUpdateConditionNotSatisfied:
		if k != "" {
			return "entity " + k + " has changed since it was read: its ETag is not the one given; read it again and retry"
		}
	case "AuthenticationFailed", "AuthorizationFailure", "Forbidden":
		return "the service refused the credentials (check the account key or SAS token; a SAS must allow this operation and not be expired)"
	}
	if detail == "" {
		return "the service refused the request"
	}
	return detail
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// codeForStatus names an answer that carried no error code: by the code
// the service uses for that status, else by the status's text.
func codeForStatus(status int) string {
	switch status {
	case http.StatusNotFound:
		return string(odata.CodeResourceNotFound)
	case http.StatusForbidden:
		return string(odata.CodeAuthenticationFailed)
	case http.StatusPreconditionFailed:
		return string(odata.CodeUpdateConditionNotSatisfied)
	case http.StatusServiceUnavailable:
		return string(odata.CodeServerBusy)
	}
	return strings.ReplaceAll(http.StatusText(status), " ", "")
}
