package page

import (
	"strings"
	"testing"

	"rightsize/catalog"
)

// TestOwnUnfitSaysWhy: a loaded sheet's own offer that does not run the
// job (two A100s for a 70B full fine-tune, no network named between
// them) is said under the answer, in each language, with the planner's
// reason and what to give; the picks rest on the catalog's offers.
func TestOwnUnfitSaysWhy(t *testing.T) {
	const sheet = "provider,instance_type,gpu,gpu_count,on_demand_per_hour,currency\nlambda,our-2xa100,a100-80gb,2,0.80,USD\n"
	cat, changes, n, err := catalog.Default().MergeOwnPrices([]byte(sheet), nil)
	var s Sheet
	own, ok := s.Use("ours.csv", changes, n, err, "en")
	if !ok {
		t.Fatal(s.Err)
	}
	pr := NewPrices(cat, own)
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
