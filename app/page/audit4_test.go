package page

import (
	"slices"
	"strings"
	"testing"
	"time"

	planner "rightsize/estimator/plan"
)

// A training pick's notes on the page name the page's own controls, not
// the CLI's flags: "--emit fsdp or deepspeed writes its launch" and
// "(--max-instances)" sent a page reader to a command line. The stack
// notes point at the Run it section, the global-batch note at its field,
// the stack-less note at the ZeRO and tensor-parallel fields, in every
// language.
func TestPlanNotesNameNoCLIFlag(t *testing.T) {
	flags := []string{"--emit", "--zero", "--tp", "--global-batch-tokens", "--max-instances"}
	label := func(lang string, k MsgKey) string {
		s := Tr(lang, k)
		if i := strings.IndexAny(s, "(（"); i > 0 {
			s = strings.TrimSpace(s[:i])
		}
		return s
	}
	names := map[planner.Msg][]MsgKey{
		planner.MsgNoteStackDP: {MsgLaunchTitle}, planner.MsgNoteStackDPFT: {MsgLaunchTitle}, planner.MsgNoteStackDPZero1: {MsgLaunchTitle}, planner.MsgNoteStackDPFTZero1: {MsgLaunchTitle},
		planner.MsgNoteStackMegatron: {MsgLaunchTitle}, planner.MsgNoteStackMegatronFT: {MsgLaunchTitle},
		planner.MsgNoteStackTorchtitan: {MsgLaunchTitle}, planner.MsgNoteStackNone: {MsgZeRO, MsgTP},
		planner.MsgNoteScaleStopBatch: {MsgGlobalBatch},
	}
	for key := planner.NoMsg + 1; key < planner.NMsgs; key++ {
		args := make([]any, strings.Count(planner.English[key], "%s"))
		for i := range args {
			args[i] = "7"
		}
		for _, lang := range []string{"en", "ru", "zh"} {
			got := (Locale{Lang: lang}).Reason(planner.Reason{Key: key, Args: args})
			for _, f := range flags {
				if strings.Contains(got, f+" ") || strings.Contains(got, f+")") || strings.Contains(got, f+"）") || strings.HasSuffix(got, f) {
					t.Errorf("%s %s names the CLI's %s: %q", lang, key, f, got)
				}
			}
			for _, k := range names[key] {
				if l := label(lang, k); !strings.Contains(got, l) {
					t.Errorf("%s %s does not name the page's %q: %q", lang, key, l, got)
				}
			}
		}
	}
	// The CLI keeps its flags.
	if got := (planner.Reason{Key: planner.MsgNoteScaleStopLimit, Args: []any{64}}).String(); !strings.Contains(got, "--max-instances") {
		t.Errorf("CLI: %q", got)
	}
}

// An offer row's date cell says its date once and "verify" once: it read
// "2025-10-01 (estimated date) · over a year old · price from 2025-10 —
// verify · under half what other providers ask for this GPU — verify".
func TestOfferRowSaysVerifyOnce(t *testing.T) {
	for _, lang := range []string{"en", "ru", "zh"} {
		v, _ := viewOf(t, "l="+lang, func(in *ViewIn) { in.Now = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC) })
		words := strings.Fields(Tr(lang, MsgVerifyPrice)) // "price from %s — verify"
		verb := words[len(words)-1]
		caveats, stale := 0, 0
		for _, r := range v.Offers.Rows {
			cell := r.Verify + " " + r.Caveat
			if n := strings.Count(cell, verb); n > 1 {
				t.Errorf("%s %s: %q says %q %d times", lang, r.ID, cell, verb, n)
			}
			if r.Caveat != "" {
				caveats++
			}
			if r.Verify != "" {
				stale++
				if r.Verify != Tr(lang, MsgVerifyDated) {
					t.Errorf("%s %s: verify note %q repeats the row's date", lang, r.ID, r.Verify)
				}
			}
		}
		if caveats == 0 || stale == 0 {
			t.Errorf("%s: %d rows with a caveat, %d stale: the test no longer reaches both", lang, caveats, stale)
		}
	}
}

// A fit-table row whose plans the picks all pass over says why, by the
// planner's reason: a price its source leaves open or quotes as a floor
// read "price from 2026-07 — verify", the wording of a stale price.
func TestFitRowPassedOverSaysWhy(t *testing.T) {
	for _, c := range []struct {
		key  planner.Msg
		want MsgKey
	}{{planner.MsgReasonToVerifyElsewhere, MsgSourceOpen}, {planner.MsgReasonFarBelow, MsgFarBelow}, {planner.MsgReasonSpotFarBelow, MsgSpotFarBelow}} {
		for _, lang := range []string{"en", "ru", "zh"} {
			v, in := viewOf(t, "l="+lang, func(in *ViewIn) {
				i, ok := in.Plan.ByGPU["h100-sxm"]
				if !ok {
					t.Fatal("no H100 plan")
				}
				cands, rows := slices.Clone(in.Plan.Cands), slices.Clone(in.Plan.Rows)
				cands[i].PassedOver = true
				rows[cands[i].Row].PassedOver = planner.Reason{Key: c.key}
				in.Plan.Cands, in.Plan.Rows = cands, rows
			})
			for _, r := range v.Fit.Rows {
				if r.GPU != "h100-sxm" {
					continue
				}
				month := Fill(Tr(lang, MsgVerifyPrice), Locale{Lang: lang}.Month(in.Plan.Cands[in.Plan.ByGPU["h100-sxm"]].Offer.AsOf))
				if !strings.HasSuffix(r.Where, " · "+Tr(lang, c.want)) || strings.Contains(r.Where, month) {
					t.Errorf("%s %s: %q", lang, c.key, r.Where)
				}
			}
		}
	}
}
