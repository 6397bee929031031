package estimator

import (
	"errors"
	"strings"
	"testing"
)

func TestEnumRoundTrips(t *testing.T) {
	for _, v := range Tasks {
		if got, err := ParseTask(v.String()); err != nil || got != v {
			t.Errorf("ParseTask(%q) = %v, %v", v, got, err)
		}
	}
	for _, v := range Engines {
		if got, err := ParseEngine(v.String()); err != nil || got != v {
			t.Errorf("ParseEngine(%q) = %v, %v", v, got, err)
		}
	}
	for _, v := range Optimizers {
		if got, err := ParseOptimizer(v.String()); err != nil || got != v {
			t.Errorf("ParseOptimizer(%q) = %v, %v", v, got, err)
		}
	}
	for _, v := range Offloads {
		if got, err := ParseOffload(v.String()); err != nil || got != v {
			t.Errorf("ParseOffload(%q) = %v, %v", v, got, err)
		}
	}
	for _, v := range Quants {
		if got, err := ParseQuant(v.String()); err != nil || got != v {
			t.Errorf("ParseQuant(%q) = %v, %v", v, got, err)
		}
	}
	want := map[Task]string{Inference: "inference", Pretrain: "train", FullFinetune: "finetune", LoRA: "lora", QLoRA: "qlora"}
	for k, v := range want {
		if k.String() != v {
			t.Errorf("%d.String() = %q, want %q", k, k.String(), v)
		}
	}
	var ie *InputError
	if _, err := ParseTask("dance"); !errors.As(err, &ie) || ie.Field != "task" || !errors.Is(err, ErrUnknown) {
		t.Errorf("ParseTask(dance) error %v", err)
	} else if ie.Value != "dance" || ie.Reason != "want one of inference|train|finetune|lora|qlora" {
		t.Errorf("ParseTask(dance) = value %q, reason %q", ie.Value, ie.Reason)
	}
	for s, want := range map[string]Task{"pretrain": Pretrain, "Pre-Training": Pretrain, "TRAIN": Pretrain, "sft": FullFinetune,
		"fine-tune": FullFinetune, "QLoRA": QLoRA, "Inference": Inference} {
		if got, err := ParseTask(s); err != nil || got != want {
			t.Errorf("ParseTask(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	if Task(9).String() != "Task(9)" {
		t.Errorf("out-of-range name %q", Task(9).String())
	}
}

func TestWarnings(t *testing.T) {
	var w Warnings
	w.add(WarnTightFit)
	w.add(WarnUnevenPipeline)
	var got []Warning
	for x := range w.Each() {
		got = append(got, x)
	}
	if len(got) != 2 || got[0] != WarnTightFit || got[1] != WarnUnevenPipeline || !w.Has(WarnTightFit) || w.Has(WarnNoKVCache) {
		t.Errorf("Each = %v", got)
	}
	if s := w.Strings(); len(s) != 2 || s[0] != "fits with less than 5% headroom" {
		t.Errorf("Strings = %q", s)
	}
}

func TestParseBytes(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Bytes
		ok   bool
	}{
		{"24GB", 24 * GB, true}, {"80GiB", 80 * GiB, true}, {"81559 MiB", 81559 * MiB, true},
		{"1.5tb", 1500 * GB, true}, {"512b", 512, true},
		{"24", 0, false}, {"-1GB", 0, false}, {"GB", 0, false}, {"1e30GB", 0, false}, {"NaNGB", 0, false},
	} {
		got, err := ParseBytes(c.in)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("ParseBytes(%q) = %d, %v", c.in, got, err)
		}
	}
}

func TestParseCount(t *testing.T) {
	for in, want := range map[string]float64{"2T": 2e12, "500m": 5e8, " 1.5B ": 1.5e9, "1e9": 1e9, "4096": 4096, "0": 0, "10k": 1e4} {
		if got, err := ParseCount(in); err != nil || got != want {
			t.Errorf("ParseCount(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	// Text that is no number says so; a number out of bounds says the
	// range ("abc" read "out of range").
	for bad, want := range map[string]error{"": ErrNotNumber, "abc": ErrNotNumber, "NaN": ErrNotNumber, "2Q": ErrNotNumber, "T": ErrNotNumber, "1.5.2B": ErrNotNumber,
		"-1": ErrRange, "inf": ErrRange, "1e19": ErrRange, "1e400": ErrRange, "-2T": ErrRange} {
		if v, err := ParseCount(bad); !errors.Is(err, want) {
			t.Errorf("ParseCount(%q) = %v, %v; want %v", bad, v, err, want)
		}
	}
}

// The parsers answer with *InputError, like Validate, so a page can mark
// the field and translate the message.
func TestParseErrorsTyped(t *testing.T) {
	for _, c := range []struct {
		err   error
		field string
	}{
		{func() error { _, err := ParseDType("fp3"); return err }(), "dtype"},
		{func() error { _, err := ParseBytes("80"); return err }(), "size"},
		{func() error { _, err := ParseBytes("-1GB"); return err }(), "size"},
		{func() error { _, err := ParseCount("lots"); return err }(), "count"},
	} {
		var ie *InputError
		if !errors.As(c.err, &ie) || ie.Field != c.field {
			t.Errorf("%v: not an InputError for %q", c.err, c.field)
		}
	}
	if d, err := ParseDType("fp4"); err != nil || d != FP4 || d.BitsPerElement() != 4 {
		t.Errorf("fp4: %v %v", d, err)
	}
}

// ParseSeconds is the one duration parser of the CLI and the page.
func TestParseSeconds(t *testing.T) {
	for _, c := range []struct {
		in   string
		want float64
	}{{"90", 90}, {" 1.5 ", 1.5}, {"800ms", 0.8}, {"72h", 259200}, {"1h30m", 5400}, {"3d", 259200}, {"0.5d", 43200}, {"0", 0}, {"1e9", 1e9}} {
		if got, err := ParseSeconds(c.in); err != nil || got != c.want {
			t.Errorf("ParseSeconds(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	for _, s := range []string{"", "-1", "-2h", "NaN", "Inf", "1e10", "20000d", "3 days", "%", "1e308d"} {
		if v, err := ParseSeconds(s); err == nil {
			t.Errorf("ParseSeconds(%q) = %v, want an error", s, v)
		} else if e, ok := err.(*InputError); !ok || e.Err != ErrRange {
			t.Errorf("ParseSeconds(%q): %v is not an InputError", s, err)
		}
	}
}

func FuzzParseSeconds(f *testing.F) {
	for _, s := range []string{"90", "800ms", "3d", "1h30m", "-1", "1e309", "NaNd"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseSeconds(s)
		if err == nil && !(v >= 0 && v <= 1e9) {
			t.Fatalf("ParseSeconds(%q) = %v", s, v)
		}
	})
}

// FuzzParseChoices: every choice field's parser takes any text without a
// panic; what it accepts writes back as a name the parser reads as the
// same value, and what it refuses is an *InputError naming the field and
// the text as given.
func FuzzParseChoices(f *testing.F) {
	for _, s := range []string{"train", "Pre-Training", "sft", "vllm", "adamw", "fa3", "all-linear", "", "\xff", "TRAIN\x00"} {
		f.Add(s)
	}
	type choice struct {
		field string
		parse func(string) (string, error)
	}
	of := func(field string, p func(string) (string, error)) choice { return choice{field, p} }
	choices := []choice{
		of("task", func(s string) (string, error) { v, err := ParseTask(s); return v.String(), err }),
		of("engine", func(s string) (string, error) { v, err := ParseEngine(s); return v.String(), err }),
		of("optimizer", func(s string) (string, error) { v, err := ParseOptimizer(s); return v.String(), err }),
		of("offload", func(s string) (string, error) { v, err := ParseOffload(s); return v.String(), err }),
		of("quant", func(s string) (string, error) { v, err := ParseQuant(s); return v.String(), err }),
		of("attention-kernel", func(s string) (string, error) { v, err := ParseAttnKernel(s); return v.String(), err }),
		of("lora-targets", func(s string) (string, error) { v, err := ParseLoRATargets(s); return v.String(), err }),
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, c := range choices {
			name, err := c.parse(s)
			if err != nil {
				var ie *InputError
				if !errors.As(err, &ie) || ie.Field != c.field || ie.Value != s || !errors.Is(err, ErrUnknown) {
					t.Fatalf("%s %q: %v", c.field, s, err)
				}
				continue
			}
			if back, err := c.parse(name); err != nil || back != name {
				t.Fatalf("%s %q reads as %q, which reads back as %q (%v)", c.field, s, name, back, err)
			}
		}
	})
}

// TestAttentionDPHeads: under serving's attention data parallelism the
// heads split over tp/dp GPUs, so TP 24 with DP 24 serves Llama 3.1 8B's
// 32 heads (one attention rank per GPU); the same TP without DP, or in
// training, does not divide them.
func TestAttentionDPHeads(t *testing.T) {
	a := loadArch(t, "llama-3.1-8b.json")
	in := DefaultInput(a)
	in.Engine, in.GPUs, in.TP, in.DP = SGLang, 24, 24, 24
	if err := in.Validate(); err != nil {
		t.Fatalf("TP 24 with attention DP 24: %v", err)
	}
	in.DP = 1
	if err := in.Validate(); err == nil || !strings.Contains(err.Error(), "num_attention_heads=32") {
		t.Fatalf("TP 24 without attention DP: %v", err)
	}
	in.DP, in.Task = 24, FullFinetune
	if err := in.Validate(); err == nil || !strings.Contains(err.Error(), "num_attention_heads=32") {
		t.Fatalf("training TP 24: %v", err)
	}
}
