//go:build linux

package docs

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/tstable/tstable/cmd"
	"github.com/tstable/tstable/iostreams"
)

// Every example of every command's --help runs as written, as a reader
// would paste it: the command's examples in order, by bash, in a fresh
// home folder holding a fresh database with the samples the examples
// name loaded (unless they load or create those tables themselves) and
// the files they read (a database, a JSONL or CSV file, a workload, a
// certificate), made from the samples. The exit status is 0 unless the
// line's comment says exit N. tstable serve lines run until they say
// where they serve, then get Ctrl-C; $CS is the connection string of a
// tstable serve over another file.
func TestHelpExamples(t *testing.T) {
	bin := buildTstable(t)
	ios, _, _, _ := iostreams.Test()
	var cmds []*cobra.Command
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Example != "" {
			cmds = append(cmds, c)
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(cmd.NewRoot(ios))
	if len(cmds) < 20 {
		t.Fatalf("only %d commands with examples", len(cmds))
	}
	for _, c := range cmds {
		t.Run(strings.ReplaceAll(c.CommandPath(), " ", "_"), func(t *testing.T) {
			t.Parallel()
			s := newSession(t, bin)
			prepareExamples(t, s, c.Example)
			for _, line := range strings.Split(c.Example, "\n") {
				line = strings.TrimSpace(line)
				if line == "" {
					continue
				}
				if strings.HasPrefix(line, "tstable serve") {
					runServeExample(t, s, line)
					continue
				}
				want := 0
				if m := exitRE.FindStringSubmatch(" " + line); m != nil {
					want, _ = strconv.Atoi(m[1])
				}
				if got, status := s.run(line, ""); status != want {
					t.Errorf("%s --help: %s\nexits %d, not %d:\n%s", c.CommandPath(), line, status, want, strings.Join(got, "\n"))
				}
			}
		})
	}
}

// runServeExample starts a tstable serve line, waits until it says where
// it serves and stops it as Ctrl-C does. A fixed port that something else
// holds is noted, not failed: the example is right, the machine busy.
func runServeExample(t *testing.T, s *session, line string) {
	got := strings.Join(s.startBackground(line, nil), "\n")
	for deadline := time.Now().Add(20 * time.Second); !strings.Contains(got, "(Ctrl-C to stop)") && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
		got = strings.Join(s.shown(s.bg[len(s.bg)-1].out.String()), "\n")
	}
	s.stop()
	switch {
	case strings.Contains(got, "address already in use"):
		t.Logf("%s: not run, its port is in use on this machine:\n%s", line, got)
	case !strings.Contains(got, "(Ctrl-C to stop)"):
		t.Errorf("%s\ndoes not serve:\n%s", line, got)
	}
}

// sampleTables are the tables of each sample.
var sampleTables = map[string][]string{
	"employees": {"Employees"},
	"orders":    {"Orders"},
	"logs":      {"LogsByDate", "LogsSpread"},
}

// exampleFiles are the files examples read, each made by bash lines in
// the session's folder (tstable from the samples, into a database of its
// own).
var exampleFiles = map[string]string{
	"employees.jsonl": "tstable --db files.db sample load employees && tstable --db files.db export Employees > employees.jsonl",
	"people.csv":      "printf 'PartitionKey,RowKey,FirstName,Age@Int32\\nSales,empid_000901,Ann,31\\nSales,empid_000902,Bob,45\\n' > people.csv",
	"people.db":       "tstable --db people.db sample load employees",
	"orders.db":       "tstable --db orders.db sample load orders",
	"queries.txt":     "printf \"LastName eq 'Jones'\\nPartitionKey eq 'Sales' and Email eq 'jonesj@contoso.com'\\n\" > queries.txt",
	"queries.jsonl":   `printf '{"time":"2025-06-01T10:00:00Z","table":"Orders","filter":"Status eq '"'"'placed'"'"'","class":"table-scan","scanned":1344,"returned":163,"ms":1.1}\n' > queries.jsonl`,
	"ops.jsonl": `printf '%s\n' '{"op":"insert","entity":{"PartitionKey":"Sales","RowKey":"empid_000900","Age":30}}' ` +
		`'{"op":"merge","entity":{"PartitionKey":"Sales","RowKey":"empid_000001","Age":44}}' > ops.jsonl`,
	"lesson.txt": "printf 'use Employees\\nget Sales empid_000001\\nquery --filter \"Age gt 60\"\\n' > lesson.txt",
}

var tableCreateRE = regexp.MustCompile(`table create (\w+)`)

// prepareExamples readies the session for a command's examples: the
// samples of the tables they name (the employees sample when they name
// none, as the reader's database), the files they read, a certificate,
// and $CS.
func prepareExamples(t *testing.T, s *session, example string) {
	loaded := false
	for sample, tables := range sampleTables {
		named, created := false, strings.Contains(example, "sample load")
		for _, tbl := range tables {
			named = named || regexp.MustCompile(`\b`+tbl+`\b`).MatchString(example)
		}
		for _, m := range tableCreateRE.FindAllStringSubmatch(example, -1) {
			created = created || strings.EqualFold(m[1], tables[0])
		}
		if named && !created {
			mustRunIn(t, s, "tstable sample load "+sample)
			loaded = true
		}
	}
	if !loaded && !strings.Contains(example, "sample load") && !strings.Contains(example, "table create") {
		mustRunIn(t, s, "tstable sample load employees") // the reader's database
	}
	for name, make := range exampleFiles {
		if strings.Contains(example, name) {
			mustRunIn(t, s, make)
		}
	}
	if strings.Contains(example, "cert.pem") {
		writeCertificate(t, s.home)
	}
	if strings.Contains(example, "$CS") {
		s.startBackground("tstable --db remote.db serve --addr 127.0.0.1:0", nil)
		got := s.bg[len(s.bg)-1].out.String()
		for deadline := time.Now().Add(20 * time.Second); !strings.Contains(got, "(Ctrl-C to stop)") && time.Now().Before(deadline); {
			time.Sleep(50 * time.Millisecond)
			got = s.bg[len(s.bg)-1].out.String()
		}
		m := regexp.MustCompile(`connection string: (\S+)`).FindStringSubmatch(got)
		if m == nil {
			t.Fatalf("tstable serve for $CS:\n%s", got)
		}
		s.env = append(s.env, "CS="+m[1])
	}
}

func mustRunIn(t *testing.T, s *session, line string) {
	t.Helper()
	if got, status := s.run(line, ""); status != 0 {
		t.Fatalf("%s: exit %d\n%s", line, status, strings.Join(got, "\n"))
	}
}

// writeCertificate writes cert.pem and key.pem into dir: a self-signed
// certificate for 127.0.0.1 and localhost, as a reader's own would be.
func writeCertificate(t *testing.T, dir string) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "localhost"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		DNSNames: []string{"localhost"}, IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)},
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "cert.pem"), pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644)
	os.WriteFile(filepath.Join(dir, "key.pem"), pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), 0o600)
}
