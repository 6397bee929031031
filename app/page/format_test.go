package page

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"rightsize/catalog"
	"rightsize/estimator"
	planner "rightsize/estimator/plan"
)

func TestFormat(t *testing.T) {
	en, ru, zh := Locale{Lang: "en"}, Locale{Lang: "ru"}, Locale{Lang: "zh"}
	for _, tc := range []struct {
		l    Locale
		n    int64
		want string
	}{{en, 0, "0"}, {en, 999, "999"}, {en, 1000, "1,000"}, {en, 8030261248, "8,030,261,248"}, {en, -1234567, "-1,234,567"},
		{ru, 8030261248, "8\u00a0030\u00a0261\u00a0248"}, {zh, 8030261248, "8,030,261,248"}} {
		if got := tc.l.Count(tc.n); got != tc.want {
			t.Errorf("%s count(%d) = %q, want %q", tc.l.Lang, tc.n, got, tc.want)
		}
	}
	// 137.3 GiB: 147,424,804,045 bytes / 2^30.
	if got := ru.Bytes(16 * estimator.GiB); got != "16,00 ГиБ" {
		t.Errorf("ru bytes(16 GiB) = %q", got)
	}
	if got := en.Bytes(16 * estimator.GiB); got != "16.00 GiB" {
		t.Errorf("en bytes(16 GiB) = %q", got)
	}
	if got := (Locale{Lang: "en", Units: UnitGB}).Bytes(16 * estimator.GB); got != "16.00 GB" {
		t.Errorf("bytes(16 GB) = %q", got)
	}
	if got := ru.Fixed(137.3, 1) + " " + ru.T(MsgUnitGiB); got != "137,3 ГиБ" {
		t.Errorf("ru 137.3 GiB = %q", got)
	}
	for _, tc := range []struct {
		l    Locale
		v    float64
		cur  string
		want string
	}{{en, 0.526, "USD", "$0.53"}, {en, 0, "USD", "—"}, {en, 0.05, "USD", "$0.050"}, {en, 245.5, "RUB", "₽ 245.50"},
		{ru, 245.5, "RUB", "245,50\u00a0₽"}, {ru, 1234.5, "USD", "1\u00a0234,50\u00a0$"}, {zh, 12, "CNY", "¥12.00"}, {en, 3, "CHF", "CHF 3.00"}} {
		if got := tc.l.Money(tc.v, tc.cur); got != tc.want {
			t.Errorf("%s money(%v, %s) = %q, want %q", tc.l.Lang, tc.v, tc.cur, got, tc.want)
		}
	}
	for l, want := range map[Locale]string{en: "2026-11-01", ru: "01.11.2026", zh: "2026年11月1日"} {
		if got := l.Date("2026-11-01"); got != want {
			t.Errorf("%s date = %q, want %q", l.Lang, got, want)
		}
	}
	for _, tc := range []struct {
		l    Locale
		f    float64
		want string
	}{{en, 0.45, "45%"}, {en, 0.042, "4.2%"}, {en, 0.0042, "0.42%"}, {ru, 0.0042, "0,42%"}, {en, 0.00001, "< 0.01%"}, {en, 0, "0%"}, {en, math.NaN(), "0%"}} {
		if got := tc.l.SmallPercent(tc.f); got != tc.want {
			t.Errorf("%s smallPercent(%v) = %q, want %q", tc.l.Lang, tc.f, got, tc.want)
		}
	}
	if got := ru.Duration(5400); got != "90 "+ru.T(MsgMin) {
		t.Errorf("ru 5400 s = %q", got)
	}
	if got := ru.Rate(0.412); got != "0,412" {
		t.Errorf("ru rate 0.412 = %q", got)
	}
}

// A planner sentence formats its numbers in the locale and never the names
// around them: the instance "8B300.240V" keeps its point in Russian and
// Chinese while the ratios take the locale's marks, and its typed money and
// times read exactly as the cards write the same figures (l.money,
// l.duration), providers by name.
func TestPlanReasonNamesKeepTheirDots(t *testing.T) {
	verda := planner.OfferRef{Provider: "verda", InstanceType: "8B300.240V", Instances: 1}
	aws := planner.OfferRef{Provider: "aws", InstanceType: "p5.48xlarge", Instances: 2}
	why := planner.Reason{Key: planner.MsgReasonCheapest, Args: []any{verda, planner.Money{Amount: 12345.5, Currency: "USD"}, aws, 1.5, 0.8}}
	for _, tc := range []struct{ lang, want string }{
		{"ru", "verda 8B300.240V: самый дешёвый из подходящих, %s; следующий, aws p5.48xlarge ×2, дороже в 1,50× при скорости 0,8×"},
		{"zh", "verda 8B300.240V：装得下的方案中最便宜，%s；次优的 aws p5.48xlarge ×2 成本是其 1.50×，速度是其 0.8×"},
		{"en", "verda 8B300.240V: cheapest that fits at %s; the runner-up, aws p5.48xlarge ×2, costs 1.50× as much for 0.8× the speed"},
	} {
		l := Locale{Lang: tc.lang}
		want := fmt.Sprintf(tc.want, l.Money(12345.5, "USD"))
		if got := l.Reason(why); got != want {
			t.Errorf("%s:\n got %q\nwant %q", tc.lang, got, want)
		}
	}
	if got := (Locale{Lang: "en"}).ReasonWith(why, func(id string) string {
		if id == "aws" {
			return "Amazon Web Services"
		}
		return id
	}); !strings.Contains(got, "Amazon Web Services p5.48xlarge ×2") || !strings.Contains(got, "$12,346") {
		t.Errorf("providers by name, money as on the cards: %q", got)
	}
	// An offer on the user's own price says so in the sentence, in the
	// page's language: the runner-up may be the user's too.
	own := planner.Reason{Key: planner.MsgReasonCheapestOwnTie, Args: []any{planner.OfferRef{Provider: "nebius", InstanceType: "my-l4", Instances: 3, Own: true},
		planner.Money{Amount: 767.4, Currency: "USD", PerMonth: true}, aws}}
	for _, tc := range []struct{ lang, want string }{
		{"en", "nebius my-l4 ×3 (your price): cheapest that fits at %s; aws p5.48xlarge ×2 costs the same, and the tie goes to your price"},
		{"ru", "nebius my-l4 ×3 (ваша цена): самый дешёвый из подходящих, %s; aws p5.48xlarge ×2 стоит столько же, и при равной цене выбрана ваша"},
		{"zh", "nebius my-l4 ×3（您的价格）：装得下的方案中最便宜，%s；aws p5.48xlarge ×2 成本相同，同价时选用您的价格"},
	} {
		l := Locale{Lang: tc.lang}
		want := fmt.Sprintf(tc.want, l.Money(767.4, "USD")+l.T(MsgPerMonthUnit))
		if got := l.Reason(own); got != want {
			t.Errorf("own price, %s:\n got %q\nwant %q", tc.lang, got, want)
		}
	}
	// A serving time with its unit words, and a hosted-API ID with a dot.
	fast := planner.Reason{Key: planner.MsgReasonCheapestAlone, Args: []any{planner.OfferRef{Provider: "yandex", InstanceType: "gpu-standard-v3.1"},
		planner.Duration{Seconds: 0.85, P95PerRequest: true}}}
	if got, want := (Locale{Lang: "ru"}).Reason(fast), "yandex gpu-standard-v3.1: единственный подходящий вариант среди цен без пометок, p95 850 мс на запрос"; got != want {
		t.Errorf("ru serving:\n got %q\nwant %q", got, want)
	}
	api := planner.Reason{Key: planner.MsgHostedCheaperThanAPI, Args: []any{verda, "openai-gpt-4.1-mini", 2.5}}
	if got, want := (Locale{Lang: "zh"}).Reason(api), "请求率高于 2.50 次/秒时，在 verda 8B300.240V 上自建比 openai-gpt-4.1-mini 更便宜"; got != want {
		t.Errorf("zh hosted:\n got %q\nwant %q", got, want)
	}
	if got := (Locale{Lang: "ru"}).Reason(api); !strings.Contains(got, "verda 8B300.240V") || !strings.Contains(got, "openai-gpt-4.1-mini") || !strings.Contains(got, "2,50") {
		t.Errorf("ru hosted: %q", got)
	}
}

func TestParseFragment(t *testing.T) {
	def := DefaultState
	with := func(kv ...any) ViewState {
		s := def
		for i := 0; i < len(kv); i += 2 {
			s[kv[i].(Field)] = kv[i+1].(string)
		}
		return s
	}
	for _, tc := range []struct {
		frag string
		want ViewState
	}{
		{"", def},
		{"m=qwen2.5-7b", with(FieldModel, "qwen2.5-7b")},
		{"m=mistral-7b-v0.1&p=int4", with(FieldModel, "mistral-7b-v0.1", FieldPrecision, "int4")},
		{"p=fp32&zz=ignored", with(FieldPrecision, "fp32")},
		{"m=%zz", def}, // malformed escape: keep defaults, do not crash
		{"m=no-such-model&b=abc", with(FieldModel, "no-such-model", FieldBatch, "abc")},
		{"t=lora&r=64&l=zh", with(FieldTask, "lora", FieldLoRARank, "64", FieldLang, "zh")},
	} {
		if got := ParseFragment(tc.frag, def); got != tc.want {
			t.Errorf("parseFragment(%q) = %v, want %v", tc.frag, got, tc.want)
		}
	}
	s := with(FieldModel, "qwen2.5-7b", FieldPrecision, "int8", FieldBatch, "8")
	if got := ParseFragment(s.Fragment(def), def); got != s {
		t.Errorf("round trip of %q = %v, want %v", s.Fragment(def), got, s)
	}
	if got, want := s.Fragment(def), "b=8&m=qwen2.5-7b&p=int8"; got != want {
		t.Errorf("fragment() = %q, want %q (only changed fields, plus the model)", got, want)
	}
}

// TestDefaultStateParses: the browser's first screen of the default view
// parses no job (Calculator.firstScreen) on the grounds that the default
// state has no problem to show.
func TestDefaultStateParses(t *testing.T) {
	cat := catalog.Default()
	j, errs, general, ok := ParseJob(DefaultState, cat, Archs{}, nil, "")
	if !ok || len(general) != 0 || j.Model.ID == "" {
		t.Fatalf("default state: ok %v, general %v, model %q", ok, general, j.Model.ID)
	}
	for f, e := range errs {
		if !e.OK() {
			t.Errorf("default state: field %s: %v", FieldNames[f], e)
		}
	}
}

func TestBytesRange(t *testing.T) {
	l := Locale{Lang: "en"}
	if got := l.BytesRange(15*estimator.GiB, 16*estimator.GiB+estimator.GiB/2); got != "15.00–16.50 GiB" {
		t.Errorf("range = %q", got)
	}
	l.Units = UnitGB
	if got := l.BytesRange(2*estimator.GB, 3*estimator.GB); got != "2.00–3.00 GB" {
		t.Errorf("range in GB = %q", got)
	}
}

// Every sentence the planner can say has a text in each of the page's
// languages: the planner's English (or the page's own English), a Russian
// and a Chinese version, with the same arguments; NoMsg has none.
func TestPlanMessages(t *testing.T) {
	verbs := func(s string) int { return strings.Count(s, "%s") + strings.Count(s, "%[") }
	for key := planner.NoMsg + 1; key < planner.NMsgs; key++ {
		en := planner.English[key]
		if en == "" {
			t.Errorf("planner message %v (%d) has no English text", key, int(key))
		}
		if key.String() == "" {
			t.Errorf("planner message %d has no name", int(key))
		}
		for _, lang := range []string{"en", "ru", "zh"} {
			m := PlanText(lang, key)
			if lang != "en" && PlanMessages[lang][key] == "" {
				t.Errorf("%s: planner message %q not translated", lang, key)
				continue
			}
			if verbs(m) != verbs(en) {
				t.Errorf("%s %q: %d arguments, English has %d", lang, key, verbs(m), verbs(en))
			}
		}
	}
	for _, lang := range []string{"en", "ru", "zh"} {
		if s := PlanMessages[lang][planner.NoMsg]; s != "" {
			t.Errorf("%s: NoMsg reads %q", lang, s)
		}
	}
}

// The daily-load box's workload presets read in the page's language: each
// planner preset has a message, whose English is the planner's own
// description (the CLI's), and the Russian and Chinese options carry no
// English description (they did: "chat — conversation service …").
func TestPresetLabelsTranslated(t *testing.T) {
	for _, p := range planner.Presets() {
		k, ok := PresetKeys[p.Name]
		if !ok {
			t.Errorf("preset %s has no message", p.Name)
			continue
		}
		if en := Tr("en", k); en != p.Description {
			t.Errorf("preset %s: English label %q, the planner's description %q", p.Name, en, p.Description)
		}
		for _, lang := range []string{"ru", "zh"} {
			if got := PresetLabel(lang, p.Name, p.Description); strings.Contains(got, p.Description) || !strings.HasPrefix(got, p.Name+" — ") {
				t.Errorf("preset %s in %s reads %q", p.Name, lang, got)
			}
		}
	}
	// The picker in the page's language: TestFormFleet.
}

// TestMessagesTranslated: every message has a text in every language,
// every estimator warning a message translated in each, and the picks'
// names read differently in Russian.
func TestMessagesTranslated(t *testing.T) {
	for _, l := range Languages {
		for k := MsgKey(0); k < NMsgs; k++ {
			if Messages[l.Code][k] == "" {
				t.Errorf("message %d not translated into %s", k, l.Code)
			}
		}
	}
	for w := estimator.Warning(0); w.String() != "unknown warning"; w++ {
		k, ok := WarningKeys[w]
		if !ok {
			t.Errorf("estimator warning %d (%s) has no message key", w, w)
			continue
		}
		if Tr("ru", k) == Tr("en", k) || Tr("zh", k) == Tr("en", k) {
			t.Errorf("warning %s is not translated", w)
		}
	}
	for _, k := range []MsgKey{MsgPickCheapest, MsgPickFastest, MsgPickValue} {
		if Tr("ru", k) == Tr("en", k) {
			t.Errorf("message %d reads the same in Russian and English", k)
		}
	}
}
