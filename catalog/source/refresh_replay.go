package source

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"sync"
)

// ReplayTransport answers HTTP requests from recorded responses, so that a
// refresh can run without the network (tests, and "catalog refresh --replay
// DIR" for a dry run on recorded data). DIR/replay.json lists
//
//	{"responses": [{"url": "https://host/path?k=v", "file": "aws/x.json"},
//	               {"url": "...", "sequence": [{"status": 429, "headers": {"Retry-After": "0"}}, {"file": "..."}]}]}
//
// A request matches an entry with the same host and path whose query
// parameters are all in the request's; the entry with the most parameters
// wins. A sequence answers its items in turn and then repeats its last.
// A request no entry matches gets 404.
type ReplayTransport struct {
	dir     string
	mu      sync.Mutex
	entries []replayEntry
	calls   map[int]int
}

type replayStep struct {
	Status  int               `json:"status,omitempty"`
	File    string            `json:"file,omitempty"`
	Body    string            `json:"body,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
}

type replayEntry struct {
	URL string `json:"url"`
	replayStep
	Sequence []replayStep `json:"sequence,omitempty"`
	u        *url.URL
}

// NewReplayTransport reads dir/replay.json.
func NewReplayTransport(dir string) (*ReplayTransport, error) {
	data, err := os.ReadFile(filepath.Join(dir, "replay.json"))
	if err != nil {
		return nil, err
	}
	var m struct {
		Responses []replayEntry `json:"responses"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("%s: %v", filepath.Join(dir, "replay.json"), err)
	}
	for i := range m.Responses {
		u, err := url.Parse(m.Responses[i].URL)
		if err != nil {
			return nil, fmt.Errorf("replay.json: entry %d: %v", i, err)
		}
		m.Responses[i].u = u
	}
	return &ReplayTransport{dir: dir, entries: m.Responses, calls: map[int]int{}}, nil
}

// RoundTrip implements http.RoundTripper.
func (t *ReplayTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		req.Body.Close()
	}
	best, bestN := -1, -1
	q := req.URL.Query()
	for i, e := range t.entries {
		if e.u.Host != req.URL.Host || e.u.Path != req.URL.Path {
			continue
		}
		n, ok := 0, true
		for k, vs := range e.u.Query() {
			if q.Get(k) != vs[0] {
				ok = false
				break
			}
			n++
		}
		if ok && n > bestN {
			best, bestN = i, n
		}
	}
	resp := &http.Response{Request: req, Header: http.Header{}, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1}
	if best < 0 {
		resp.StatusCode = http.StatusNotFound
		resp.Body = io.NopCloser(bytes.NewReader([]byte("no recorded response for " + req.URL.String())))
		return resp, nil
	}
	e := t.entries[best]
	step := e.replayStep
	if len(e.Sequence) > 0 {
		t.mu.Lock()
		n := t.calls[best]
		t.calls[best]++
		t.mu.Unlock()
		step = e.Sequence[min(n, len(e.Sequence)-1)]
	}
	body := []byte(step.Body)
	if step.File != "" {
		b, err := os.ReadFile(filepath.Join(t.dir, step.File))
		if err != nil {
			return nil, err
		}
		body = b
	}
	resp.StatusCode = step.Status
	if resp.StatusCode == 0 {
		resp.StatusCode = http.StatusOK
	}
	for k, v := range step.Headers {
		resp.Header.Set(k, v)
	}
	resp.Header.Set("Content-Length", strconv.Itoa(len(body)))
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.ContentLength = int64(len(body))
	return resp, nil
}
