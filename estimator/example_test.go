package estimator_test

import (
	"fmt"

	"rightsize/estimator"
)

// Llama-3.1-8B on a 24 GiB GPU: bf16 inference, then QLoRA fine-tuning.
func Example() {
	cfg := []byte(`{"model_type": "llama", "hidden_size": 4096, "intermediate_size": 14336,
		"num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8,
		"vocab_size": 128256, "tie_word_embeddings": false}`)
	arch, err := estimator.ParseConfig(cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	in := estimator.DefaultInput(arch)
	in.VRAM = 24 * estimator.GiB
	in.Seq = 8192
	r, err := estimator.Estimate(in)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d params, KV %d B/token\n", r.Params, r.KVBytesPerToken)
	fmt.Printf("inference: %.1f GiB of %.1f GiB, fits=%v, max batch %d\n",
		r.PerGPU.Total().GiB(), r.Usable.GiB(), r.Fits, estimator.MaxBatch(in))

	in.Task, in.LoRARank, in.GradCheckpointing, in.Seq = estimator.QLoRA, 16, true, 2048
	r, _ = estimator.Estimate(in)
	fmt.Printf("qlora: weights %.1f GiB, total %.1f GiB, fits=%v\n",
		r.PerGPU.Weights.GiB(), r.PerGPU.Total().GiB(), r.Fits)
	// Output:
	// 8030261248 params, KV 131072 B/token
	// inference: 17.5 GiB of 23.8 GiB, fits=true, max batch 3
	// qlora: weights 7.6 GiB, total 14.6 GiB, fits=true
}
