package page

import (
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	"rightsize/catalog"
	planner "rightsize/estimator/plan"
)

// TestOwnUnfitSaysWhy: a loaded sheet's own offer that does not run the
// job (two A100s for a 70B full fine-tune, no network named between
// them) is said under the answer, in each language, with the planner's
// reason and what to give; the picks rest on the catalog's offers.
func TestOwnUnfitSaysWhy(t *testing.T) {
	const sheet = "provider,instance_type,gpu,gpu_count,on_demand_per_hour,currency\nlambda,our-2xa100,a100-80gb,2,0.80,USD\n"
	pr := ownPrices(t, sheet)
	for lang, want := range map[string][]string{
		"en": {"Your price, not picked: Lambda · our-2xa100 does not run this job: one instance does not hold it, and your price sheet names no network between your instances: give the row's network_gbps and network_fabric"},
		"ru": {"Ваша цена, не выбрана: Lambda · our-2xa100 не выполняет эту задачу: один инстанс не вмещает задачу, а ваш прайс-лист не указывает сеть"},
		"zh": {"您的价格，未选用：Lambda · our-2xa100 无法运行此任务：单个实例装不下，且您的价格表未标明您的实例之间的网络"},
	} {
		frag := "m=llama-3.1-70b&t=finetune&tok=100M"
		st := ParseFragment(frag, DefaultState)
		st[FieldLang] = lang
		d := Derive(st, nil, pr, nil, "")
		if !d.R.OK {
			t.Fatalf("%s: the job does not read", frag)
		}
		in := ViewIn{State: st, Job: d.Job, R: d.R, Prices: pr, Plan: RunPlan(d.Job, pr)}
		v := BuildView(in)
		if len(v.Answer.Picks) == 0 || len(v.Answer.OwnUnfit) != 1 {
			t.Fatalf("%s: %d picks, own unfit %q", lang, len(v.Answer.Picks), v.Answer.OwnUnfit)
		}
		for _, w := range want {
			if !strings.HasPrefix(v.Answer.OwnUnfit[0], w) {
				t.Errorf("%s: %q, want %q…", lang, v.Answer.OwnUnfit[0], w)
			}
		}
		if n, ok := find(AnswerNode(&v), byID("rs-own-unfit-0")); !ok || n.Text != v.Answer.OwnUnfit[0] {
			t.Errorf("%s: the answer does not show the line (%v, %q)", lang, ok, n.Text)
		}
	}
}

// TestOwnPriceUnflagged: the user's own price (a sheet that gives no
// date) is dated "undated: your prices are never judged stale" on its
// pick and its offers row, with no age grade and no "verify", as the
// planner never judges it stale; the cheaper flagged plan beside a
// serving answer costs per month, as the picks' reasons say.
func TestOwnPriceUnflagged(t *testing.T) {
	const sheet = "provider,instance_type,gpu,gpu_count,on_demand_per_hour,currency\nlambda,our-1x-h100,h100-sxm,1,1.60,USD\n"
	pr := ownPrices(t, sheet)
	for _, lang := range []string{"en", "ru", "zh"} {
		st := ParseFragment("m=llama-3.1-8b&rps=5&show=offers", DefaultState)
		st[FieldLang] = lang
		d := Derive(st, nil, pr, nil, "")
		in := ViewIn{State: st, Job: d.Job, R: d.R, Prices: pr, Plan: RunPlan(d.Job, pr), Now: time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)}
		v := BuildView(in)
		if len(v.Answer.Picks) == 0 || !strings.Contains(v.Answer.Picks[0].Where, "our-1x-h100") {
			t.Fatalf("%s: the first pick is not the sheet's offer: %+v", lang, v.Answer.Picks)
		}
		undated := Tr(lang, MsgOwnUndated)
		if p := v.Answer.Picks[0].Price; p.Date != undated || p.Age != "" || p.Class != "" || p.Verify != "" || p.Caveat != "" || p.From != "" {
			t.Errorf("%s: the own pick's price reads %+v, want %q and nothing else", lang, p, undated)
		}
		i := slices.IndexFunc(v.Offers.Rows, func(r OfferRow) bool { return r.Instance == "our-1x-h100" })
		if i < 0 {
			t.Fatalf("%s: no offers row for the sheet's offer", lang)
		}
		if r := v.Offers.Rows[i]; r.AsOf != undated || r.Age != 0 || r.Verify != "" || r.Caveat != "" {
			t.Errorf("%s: the own offers row reads as of %q, age %d, verify %q, caveat %q", lang, r.AsOf, r.Age, r.Verify, r.Caveat)
		}
		if v.Answer.Flagged == "" || !strings.HasSuffix(v.Answer.Flagged, Tr(lang, MsgPerMonthUnit)) {
			t.Errorf("%s: the cheaper flagged plan reads %q, want a cost per month", lang, v.Answer.Flagged)
		}
	}
}

// TestOwnUnfitCounted: a sheet of many offers that do not run the job
// names the first ownUnfitShown and counts the rest, in each language (a
// 100,000-row sheet of T4s for Llama 3.1 8B wrote 100,000 lines and held
// the browser's main thread for 20 s).
func TestOwnUnfitCounted(t *testing.T) {
	var b strings.Builder
	b.WriteString("provider,instance_type,gpu,gpu_count,on_demand_per_hour,currency\n")
	const rows = 40
	for i := range rows {
		b.WriteString("lambda,our-t4-" + strings.Repeat("x", i+1) + ",t4,1,0.10,USD\n")
	}
	pr := ownPrices(t, b.String())
	for lang, more := range map[string]string{"en": "and 35 more of your offers do not run it", "ru": "и ещё 35 ваших предложений её не выполняют", "zh": "另有 35 个您的报价也无法运行此任务"} {
		st := ParseFragment("m=llama-3.1-8b&p=bf16", DefaultState)
		st[FieldLang] = lang
		d := Derive(st, nil, pr, nil, "")
		v := BuildView(ViewIn{State: st, Job: d.Job, R: d.R, Prices: pr, Plan: RunPlan(d.Job, pr)})
		if got := v.Answer.OwnUnfit; len(got) != ownUnfitShown+1 || got[ownUnfitShown] != more {
			t.Errorf("%s: %d lines, last %q; want %d and %q", lang, len(got), got[len(got)-1:], ownUnfitShown+1, more)
		}
	}
}

// ownPrices is the catalog with sheet loaded as the user's own prices.
func ownPrices(t *testing.T, sheet string) Prices {
	t.Helper()
	cat, changes, n, err := catalog.Default().MergeOwnPrices([]byte(sheet), nil)
	var s Sheet
	own, ok := s.Use("ours.csv", changes, n, err, "en")
	if !ok {
		t.Fatal(s.Err)
	}
	return NewPrices(cat, own)
}

// TestOwnRowPastRegionSaid: the page's region filter keeps the user's own
// offer whose sheet gives no region, and its pick says so in each
// language, where the filter dropped it unsaid.
func TestOwnRowPastRegionSaid(t *testing.T) {
	const sheet = "provider,instance_type,gpu,gpu_count,on_demand_per_hour,currency\nlambda,our-1x-h100,h100-sxm,1,0.50,USD\n"
	pr := ownPrices(t, sheet)
	for lang, want := range map[string]string{
		"en": "region not given in your sheet: kept, the region filter not checked",
		"ru": "регион не указан в вашем прайс-листе: строка оставлена, фильтр по региону не проверен",
		"zh": "您的价格表未填写地区：已保留此行，未按地区筛选",
	} {
		st := ParseFragment("m=llama-3.1-8b&rps=5&hr=eu", DefaultState)
		st[FieldLang] = lang
		d := Derive(st, nil, pr, nil, "")
		v := BuildView(ViewIn{State: st, Job: d.Job, R: d.R, Prices: pr, Plan: RunPlan(d.Job, pr)})
		if len(v.Answer.Picks) == 0 || !strings.Contains(v.Answer.Picks[0].Where, "our-1x-h100") {
			t.Fatalf("%s: the first pick is not the sheet's offer: %+v", lang, v.Answer.Picks)
		}
		if !strings.Contains(v.Answer.Picks[0].Notes, want) {
			t.Errorf("%s: the pick's notes %q lack %q", lang, v.Answer.Picks[0].Notes, want)
		}
	}
}

// asciiBeside is the first ASCII bracket or colon in s with Chinese text
// right beside it (spaces skipped), and its surroundings; "" when none.
// Chinese takes full-width brackets and colons (Locale.Aside,
// Locale.Colon); a bracket inside Latin text ("H100 SXM (TP 4)") or
// code ("\"rope_scaling\": …") is not beside Chinese.
func asciiBeside(s string) string {
	r := []rune(s)
	han := func(i int, step int) bool {
		for ; i >= 0 && i < len(r); i += step {
			if r[i] != ' ' {
				return unicode.Is(unicode.Han, r[i]) || strings.ContainsRune("，。；：（）、“”", r[i])
			}
		}
		return false
	}
	for i, c := range r {
		if (c == '(' || c == ')' || c == ':') && (han(i-1, -1) || han(i+1, 1)) {
			return string(r[max(0, i-12):min(len(r), i+12)])
		}
	}
	return ""
}

// texts is every text under n.
func texts(n Node) []string {
	out := []string{n.Text, n.Label}
	for _, k := range n.Kids {
		out = append(out, texts(k)...)
	}
	return out
}

// TestOwnPriceChineseIsFullWidth: what the page says in Chinese of a
// loaded price sheet (the picks on it, its offers that do not run the
// job, a filter its rows were not checked against, the sheet's status
// line and a refused or oversized sheet) puts no ASCII bracket or colon
// beside Chinese text: the pick read "Lambda (您的价格)" and the status
// "行: 2".
func TestOwnPriceChineseIsFullWidth(t *testing.T) {
	if s := asciiBeside("Lambda (您的价格)"); s == "" {
		t.Fatal("the scan misses an ASCII bracket around Chinese")
	}
	const sheet = "provider,instance_type,gpu,gpu_count,on_demand_per_hour,currency\nlambda,our-1x-h100,h100-sxm,1,0.50,USD\nlambda,our-t4,t4,1,0.10,USD\n"
	pr := ownPrices(t, sheet)
	st := ParseFragment("m=llama-3.1-8b&rps=5&hr=eu&p=bf16&e=vllm&show=offers", DefaultState)
	st[FieldLang] = "zh"
	d := Derive(st, nil, pr, nil, "")
	v := BuildView(ViewIn{State: st, Job: d.Job, R: d.R, Prices: pr, Plan: RunPlan(d.Job, pr)})
	if len(v.Answer.Picks) == 0 || len(v.Answer.OwnUnfit) == 0 {
		t.Fatalf("no pick or no own offer that does not run the job: %+v", v.Answer)
	}
	if w := v.Answer.Picks[0].Where; !strings.HasPrefix(w, "Lambda（您的价格） · our-1x-h100") {
		t.Errorf("the own pick is not named Lambda（您的价格）: %q", w)
	}
	out := texts(AnswerNode(&v))
	for _, p := range v.Answer.Picks {
		out = append(out, p.Where, p.Reason, p.Notes)
	}
	out = append(out, v.Answer.OwnUnfit...)
	_, status, _ := SheetStatus("zh", "", 0, "ours.csv", 2, 2)
	var refused, big Sheet
	refused.Use("ours.csv", nil, 0, catalog.ErrNoPriceRows, "zh")
	big.Fits("ours.csv", strings.Repeat("x", MaxSheetBytes+1), "zh")
	out = append(out, status, refused.Err, big.Err, TooBig("zh", MaxSheetBytes))
	// Every plan message of the user's own offers, as its Chinese reads.
	for key := planner.NoMsg + 1; key < planner.NMsgs; key++ {
		if strings.Contains(key.String(), "own") {
			args := make([]any, strings.Count(planner.English[key], "%s"))
			for i := range args {
				args[i] = "7"
			}
			out = append(out, (Locale{Lang: "zh"}).Reason(planner.Reason{Key: key, Args: args}))
		}
	}
	for _, s := range out {
		if b := asciiBeside(s); b != "" {
			t.Errorf("ASCII bracket or colon beside Chinese: …%s… in %q", b, s)
		}
	}
}
