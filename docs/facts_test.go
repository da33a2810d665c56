package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// numberWords are how the guides write small counts.
var numberWords = []string{"no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"}

// replayOthersRE is the serve guide's count of the answers the replay of
// the service's recordings finds different.
var replayOthersRE = regexp.MustCompile("The ([0-9]+|[a-z]+) others are listed in\\s+`server/testdata/replay/differences.txt`")

// The serve guide says as many answers differ from the service's
// recorded ones as testdata/replay/differences.txt lists, where the
// replay test (TestReplayRealService) holds them: a difference fixed or
// found there fails here until the guide says so.
func TestServeGuideCountsTheReplayDifferences(t *testing.T) {
	listed := 0
	b, err := os.ReadFile(filepath.Join("..", "server", "testdata", "replay", "differences.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			listed++
		}
	}
	guide, err := os.ReadFile(filepath.Join("..", "docs", "serve.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := replayOthersRE.FindStringSubmatch(string(guide))
	if m == nil {
		t.Fatalf("docs/serve.md does not say how many answers differ (%q)", replayOthersRE)
	}
	said, err := strconv.Atoi(m[1])
	if err != nil {
		said = -1
		for i, w := range numberWords {
			if w == m[1] {
				said = i
			}
		}
	}
	if said != listed {
		t.Errorf("docs/serve.md says %s answers differ from the service's, but server/testdata/replay/differences.txt lists %d: say which now differ, and why", m[1], listed)
	}
}
