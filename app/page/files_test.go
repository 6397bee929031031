package page

import (
	"errors"
	"strings"
	"testing"
)

func TestSheetBookkeeping(t *testing.T) {
	var s Sheet
	if s.Fits("big.csv", strings.Repeat("x", MaxSheetBytes+1), "en") || !strings.HasPrefix(s.Err, "big.csv: "+Tr("en", MsgFileTooBig)) {
		t.Errorf("an oversized sheet: %q", s.Err)
	}
	if !s.Fits("ok.csv", "a,b", "en") || s.Err != "" {
		t.Errorf("a small sheet: %q", s.Err)
	}
	own, ok := s.Use("p.csv", []PriceChange{{OfferID: "a"}, {OfferID: "b"}, {OfferID: "a"}}, 3, nil, "en")
	if !ok || len(own) != 2 || !own["a"] || !own["b"] || s.Name != "p.csv" || s.Rows != 3 {
		t.Errorf("a sheet read: %v %v %+v", own, ok, s)
	}
	own, ok = s.Use("bad.csv", nil, 0, errors.New("catalog: line 2: on_demand_per_hour"), "en")
	if ok || own != nil || s.Err != "bad.csv: "+Tr("en", MsgBadSheet)+": line 2: on_demand_per_hour" || s.Name != "p.csv" || s.Rows != 3 {
		t.Errorf("a refused sheet keeps the last one: %+v", s)
	}
}

func TestSheetStatus(t *testing.T) {
	if id, text, ok := SheetStatus("en", "big.csv", 0.42, "", 0, 0); id != "rs-prices-progress" || ok || !strings.HasPrefix(text, "big.csv · ") || !strings.HasSuffix(text, " 42 %") {
		t.Errorf("applying: %q %q %v", id, text, ok)
	}
	if id, text, ok := SheetStatus("en", "", 0, "p.csv", 12, 7); id != "rs-prices-status" || !ok || !strings.Contains(text, ": 12 · ") || !strings.HasSuffix(text, ": 7") {
		t.Errorf("in use: %q %q %v", id, text, ok)
	}
	if id, text, ok := SheetStatus("en", "", 0, "", 0, 0); id != "" || ok || text != Tr("en", MsgSheetHelp) {
		t.Errorf("none: %q %q %v", id, text, ok)
	}
	if got := TooBig("en", 64<<10); !strings.Contains(got, "(64 ") {
		t.Errorf("too big: %q", got)
	}
}

func TestReadConfig(t *testing.T) {
	if _, msg := ReadConfig("c.json", "{", "en"); !strings.HasPrefix(msg, "c.json: "+Tr("en", MsgBadConfig)+": ") || strings.Contains(msg, "estimator: ") {
		t.Errorf("bad config: %q", msg)
	}
	if _, msg := ReadConfig("c.json", strings.Repeat(" ", MaxConfigBytes+1), "en"); msg != "c.json: "+Tr("en", MsgConfigTooBig) {
		t.Errorf("big config: %q", msg)
	}
	cfg := `{"model_type": "llama", "hidden_size": 4096, "intermediate_size": 11008, "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 32, "vocab_size": 32000}`
	if a, msg := ReadConfig("c.json", cfg, "en"); msg != "" || a.Layers != 32 {
		t.Errorf("llama config: %q %+v", msg, a)
	}
}
