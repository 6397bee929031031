package launch_test

import (
	"fmt"

	"rightsize/catalog"
	"rightsize/catalog/launch"
	"rightsize/estimator"
	"rightsize/estimator/plan"
)

// Emit writes the settings for one row of a plan: here Llama 3.1 8B
// (its Instruct checkpoint) served with vLLM on one H100 (aws p5.4xlarge). The page and the command
// line pass the row plan.Plan picked (Result.Rows[Result.Cheapest]).
func ExampleEmit() {
	cat := catalog.Default()
	m, _ := cat.Model("llama-3.1-8b")
	arch, _ := estimator.ParseConfig([]byte(m.Config))
	in := estimator.DefaultInput(arch)
	in.Engine = estimator.VLLM
	req := plan.Request{Input: in, Workload: plan.Workload{Kind: plan.Serving, RequestsPerSecond: 2, PromptTokens: 1000, OutputTokens: 200}}
	var offer plan.Offer
	for _, o := range cat.PlanOffers(in.Weights) {
		if o.ID == "aws-p5.4xlarge" {
			offer = o
		}
	}
	row := plan.Row{Offer: &offer, Fits: true, Engine: estimator.VLLM, Instances: 1, TP: 1, PP: 1, DP: 1, Replicas: 1, InstancesPerReplica: 1}
	l, err := launch.Emit(launch.VLLM, req, row, cat, "llama-3.1-8b")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(l.Files[0].Name, l.Files[0].Format)
	fmt.Print(l.Text())
	// Output:
	// serve.sh sh
	// #!/bin/sh
	// # rightsize plan: aws p5.4xlarge, on-demand, 1 replica of 1 instance
	// vllm serve meta-llama/Llama-3.1-8B-Instruct \
	//   --tensor-parallel-size 1 \
	//   --dtype bfloat16 \
	//   --max-model-len 1200 \
	//   --max-num-seqs 1024 \
	//   --max-num-batched-tokens 8192 \
	//   --gpu-memory-utilization 0.9 \
	//   --host 0.0.0.0 \
	//   --port 8000
	//
	// # note: llama-3.1-8b names a pretrained checkpoint and its instruction-tuned one: inference takes meta-llama/Llama-3.1-8B-Instruct, which answers chat requests; name meta-llama/Llama-3.1-8B as the model for the pretrained one
}
