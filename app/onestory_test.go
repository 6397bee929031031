package app

import (
	"html"
	"math"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"rightsize/app/page"
	planner "rightsize/estimator/plan"
)

// textByID is the text of the first element with id in page (its own text
// up to the next tag), unescaped; ok is false when there is none.
func textByID(doc, id string) (string, bool) {
	i := strings.Index(doc, `id="`+id+`"`)
	if i < 0 {
		return "", false
	}
	j := strings.Index(doc[i:], ">")
	k := strings.Index(doc[i+j:], "<")
	return html.UnescapeString(doc[i+j+1 : i+j+k]), true
}

// innerTextByID is the text of element id (a tag element) with its
// children's, white space collapsed as a browser shows it.
func innerTextByID(doc, id, tag string) (string, bool) {
	i := strings.Index(doc, `id="`+id+`"`)
	if i < 0 {
		return "", false
	}
	doc = doc[i:]
	doc = doc[strings.Index(doc, ">")+1:]
	if k := strings.Index(doc, "</"+tag+">"); k >= 0 {
		doc = doc[:k]
	}
	var b strings.Builder
	for doc != "" {
		lt := strings.Index(doc, "<")
		if lt < 0 {
			b.WriteString(doc)
			break
		}
		b.WriteString(doc[:lt])
		gt := strings.Index(doc[lt:], ">")
		if gt < 0 {
			break
		}
		doc = doc[lt+gt+1:]
	}
	return strings.Join(strings.Fields(html.UnescapeString(b.String())), " "), true
}

// TestPageTellsOneStory renders the page for a matrix of user questions and
// checks that every figure shown in two places is the same figure, and that
// each states the plan it describes:
//   - the speed box's cost at this speed is price × GPUs × time / tokens on
//     the offer it names (the GPU's cheapest listed on-demand price);
//   - the planner's figure in the speed box is the planner's cheapest row
//     on this GPU, the one the fit table prices;
//   - each pick card shows the cost its row is ranked by, and the cheapest
//     pick's sentence quotes the same amount as its card;
//   - the serving fleet names the cheapest pick's GPU and offer and bills
//     the pick's cost;
//   - the offers table's time is the planner's time for that offer.
func TestPageTellsOneStory(t *testing.T) {
	for _, frag := range []string{
		"",                                   // Llama 3.1 8B, HF, one H100, a batch job
		"g=t4&p=int8",                        // 7B-class inference on a T4
		"g=a100-80gb-sxm&e=vllm&b=32",        // the same on an A100 with vLLM
		"t=lora&tok=100M",                    // LoRA 8B for 100M tokens
		"m=mistral-7b-v0.3&rps=20&ttft=1000", // serving at 20 req/s within a TTFT target
		"m=llama-3.1-70b&t=finetune&n=8&z=3&gc=1&tok=1B", // 70B FSDP on 8 × H100
		"m=llama-3.1-70b&t=train&s=8192&gc=1&tok=20B",    // pre-training at 8K
		"t=finetune&gc=1&pr=spot",                        // spot pricing
		"cur=RUB&g=l4",                                   // another currency
		"m=mixtral-8x7b&p=fp4&g=b200&e=vllm&rps=5",       // MoE, Blackwell FP4, serving
	} {
		t.Run(frag, func(t *testing.T) {
			c, _ := load(t)
			c.state = page.ParseFragment(frag, page.DefaultState)
			c.start.drop(c.plainView(), c.ps.Out.OK)
			c.recompute(none)
			if !c.d.R.OK || !c.ps.Out.OK {
				t.Fatalf("no answer: %v %v %v", c.d.Errs, c.d.General, c.ps.Out.Err)
			}
			l := locOf(c)
			doc := app.HTMLString(c.Render())
			v := c.d.R.Perf
			// Cost at this speed, recomputed by hand on the offer and price of
			// the planner's cheapest row on this GPU: price × GPUs × time.
			if x, ok := c.ps.Out.Best(c.d.Job.GPU.ID); ok && v.OK {
				per := math.NaN()
				req := page.PlanRequest(c.d.Job)
				req.FX = c.pr.Cat.PlanFX()
				res, err := planner.Plan(req, c.pr.PlanOffers(c.d.Job.In.Weights), planner.Options{})
				if err != nil {
					t.Fatal(err)
				}
				for _, r := range res.Rows {
					if r.Offer.ID == x.Offer.ID && r.Fits {
						per = r.PricePerHourDisp / r.Offer.GPUCount
						break
					}
				}
				hourly := per * float64(c.d.Job.In.GPUs)
				want := hourly * v.Seconds / 3600
				if !c.d.Job.In.Task.Training() {
					want = hourly / (v.P.TokensPerSecond * 3600) * 1e6
				}
				got, _ := textByID(doc, "rs-cost-at-speed")
				if got != l.Money(want, c.ps.Out.Currency) {
					t.Errorf("cost at this speed %q, want %s (%s at %v/GPU·h)", got, l.Money(want, c.ps.Out.Currency), x.Offer.InstanceType, per)
				}
			}
			// The planner's figure on this GPU is its cheapest row there.
			if x, ok := c.ps.Out.Best(c.d.Job.GPU.ID); ok && v.OK {
				want := l.Money(x.Cost, c.ps.Out.Currency)
				if !c.d.Job.In.Task.Training() {
					// Per 1M tokens, in the cards' currency at the
					// catalog's dated rate.
					fx, _ := c.pr.Cat.FX(c.ps.Out.Currency)
					want = l.Money(x.PerMOutUSD*fx.PerUSD, c.ps.Out.Currency)
				}
				if got, _ := textByID(doc, "rs-cheapest"); got != want {
					t.Errorf("planner's figure %q, want %q", got, want)
				}
				if !strings.Contains(doc, x.Offer.InstanceType) {
					t.Errorf("the planner's figure does not name %s", x.Offer.InstanceType)
				}
			}
			// Pick cards: the ranked cost, and the cheapest's sentence
			// quotes the same amount.
			for _, p := range viewOf(c).Answer.Picks {
				var k page.PickKind
				for _, q := range c.ps.Out.Picks {
					if q.Kind.String() == p.Kind {
						k = q.Kind
						if want := l.Money(q.Cost, c.ps.Out.Currency); p.Cost != want {
							t.Errorf("%s card %q, ranked cost %q", p.Kind, p.Cost, want)
						}
						if k == page.PickCheapest && q.Why.Key == planner.MsgReasonCheapest && !strings.Contains(p.Reason, p.Cost) {
							t.Errorf("cheapest card %q, its sentence %q", p.Cost, p.Reason)
						}
					}
				}
				for _, r := range strings.Split(p.Reason, "\n") { // a shared card's sentences, one a paragraph
					if !strings.Contains(doc, html.EscapeString(r)) && !strings.Contains(doc, r) {
						t.Errorf("%s reason not on the doc: %q", p.Kind, r)
					}
				}
			}
			// The serving fleet is the cheapest pick's, named.
			if c.ps.Out.Kind == planner.Serving {
				if !viewOf(c).Serve.Shown {
					t.Fatal("a serving plan without its fleet")
				}
				ch := c.ps.Out.Picks[0]
				fleet, _ := textByID(doc, "rs-fleet-plan")
				if ch.Kind != page.PickCheapest || !strings.Contains(fleet, c.pr.GPUName(ch.Offer.GPU)) || !strings.Contains(fleet, ch.Offer.InstanceType) {
					t.Errorf("fleet %q for the cheapest pick on %s %s", fleet, ch.Offer.GPU, ch.Offer.InstanceType)
				}
				if got, _ := textByID(doc, "rs-monthly"); got != l.Money(ch.Cost, c.ps.Out.Currency) {
					t.Errorf("fleet bill %q, cheapest pick %q", got, l.Money(ch.Cost, c.ps.Out.Currency))
				}
			}
			// The offers table's time and cost are the planner's rows.
			for _, o := range c.d.R.Offers {
				i, ok := c.ps.Out.ByOffer[o.Offer.ID]
				if !ok {
					continue
				}
				x := c.ps.Out.Cands[i]
				at := strings.Index(doc, `data-offer="`+o.Offer.ID+`"`)
				if at < 0 {
					continue // beyond the rows shown
				}
				row := doc[at:]
				row = row[:strings.Index(row, "</tr>")]
				if !strings.Contains(row, l.Money(x.Cost, c.ps.Out.Currency)) || !strings.Contains(row, l.Duration(x.Seconds)) {
					t.Errorf("offer %s row lacks the plan's %s and %s", o.Offer.ID, l.Money(x.Cost, c.ps.Out.Currency), l.Duration(x.Seconds))
				}
			}
		})
	}
}

// TestJobLine: the answer says the job it is planned for, above the picks,
// in the doc's language.
func TestJobLine(t *testing.T) {
	for _, tc := range []struct{ frag, want string }{
		{"", "Planned for: Llama 3.1 8B · Inference · 100,000 requests × 2,048 tokens|memory and speed below on: 1 × NVIDIA H100 SXM 80GB · vLLM · Batch size 1"},
		{"e=hf", "memory and speed below on: 1 × NVIDIA H100 SXM 80GB · Hugging Face transformers · Batch size 1"},
		{"t=lora&tok=100M", "Planned for: Llama 3.1 8B · LoRA · 100,000,000 training tokens|memory and speed below on: 1 × NVIDIA H100 SXM 80GB · Batch size 1"},
		{"m=mistral-7b-v0.3&rps=20", "requests/s · 1,536 + 512 tokens each"},
		{"l=ru", "План для: Llama 3.1 8B"},
	} {
		c, _ := load(t)
		c.state = page.ParseFragment(tc.frag, page.DefaultState)
		c.start.drop(c.plainView(), c.ps.Out.OK)
		c.recompute(none)
		got, ok := innerTextByID(app.HTMLString(c.Render()), "rs-job-line", "p")
		// The job, then the setup the figures below are for ("|" between).
		for _, want := range strings.Split(tc.want, "|") {
			if !ok || !strings.Contains(got, want) {
				t.Errorf("%q: job line %q, want %q", tc.frag, got, want)
			}
		}
	}
}
