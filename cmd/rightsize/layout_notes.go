package main

import (
	"fmt"
	"strings"

	"rightsize/estimator"
)

// layoutNotes are the note lines that say which ZeRO stage and pipeline
// schedule estimator.ResolveTrainDefaults chose for a pre-training job
// that named neither, and why: the default, or the defaults that did not
// fit and what did.
func layoutNotes(lay estimator.TrainLayout) []string {
	var notes []string
	if lay.ZeROChosen && lay.ZeRO == 1 {
		notes = append(notes, "--zero 1: pre-training over data-parallel replicas shards the optimizer states, as Megatron-Core's distributed optimizer (NeMo, Megatron-Bridge), FSDP and GPT-NeoX's ZeRO-1 do by default; --zero 0 for plain data parallelism")
	}
	if len(lay.Tried) == 0 || !lay.Fits {
		return notes
	}
	var flags, names []string
	if lay.ZeROChosen {
		flags, names = append(flags, fmt.Sprintf("--zero %d", lay.ZeRO)), append(names, "--zero")
	}
	if lay.ScheduleChosen {
		flags, names = append(flags, fmt.Sprintf("--virtual-stages %d", lay.VirtualStages)), append(names, "--virtual-stages")
	}
	what := func(z, v int) string {
		var s []string
		if lay.ZeROChosen {
			s = append(s, zeroLabel(z))
		}
		if lay.ScheduleChosen {
			s = append(s, scheduleLabel(v))
		}
		return strings.Join(s, " with ")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: ", strings.Join(flags, " "))
	for i, t := range lay.Tried {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s needs %.1f GiB", what(t.ZeRO, t.VirtualStages), t.Peak.GiB())
		if i == 0 {
			fmt.Fprintf(&b, " of %.1f usable", lay.Usable.GiB())
		}
	}
	fmt.Fprintf(&b, "; %s fits at %.1f GiB", what(lay.ZeRO, lay.VirtualStages), lay.Peak.GiB())
	if lay.ZeROChosen && lay.ZeRO == 2 {
		b.WriteString(" (the gradients sharded too, as Llama 3's FSDP held them)")
	}
	fmt.Fprintf(&b, "; give %s to choose", strings.Join(names, " or "))
	return append(notes, b.String())
}

// zeroLabel names a ZeRO stage as the stacks that run it by default do.
func zeroLabel(z int) string {
	switch z {
	case 1:
		return "ZeRO-1 (distributed optimizer)"
	case 2:
		return "FSDP-style ZeRO-2"
	case 3:
		return "FSDP full-shard ZeRO-3"
	}
	return fmt.Sprintf("ZeRO-%d", z)
}

// scheduleLabel names a pipeline schedule of v model chunks a stage.
func scheduleLabel(v int) string {
	if v <= 1 {
		return "plain 1F1B"
	}
	return fmt.Sprintf("the interleaved schedule (%d chunks a stage)", v)
}
