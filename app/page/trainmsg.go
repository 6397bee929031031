package page

import (
	"strconv"

	"rightsize/estimator"
)

// The training detail's strings for the global batch limit and the whole
// run, kept apart from i18n.go's tables.
func init() {
	messagesEN[MsgBatchShort] = "%s data-parallel replicas × micro-batch %s exceed the global batch of %s sequences, which Megatron-LM, torchtitan and llm-foundry refuse: use at most %s replicas (fewer GPUs, more TP, PP or CP) or a larger global batch"
	MessagesRU[MsgBatchShort] = "%s реплик данных × микробатч %s больше глобального батча в %s последовательностей, и Megatron-LM, torchtitan и llm-foundry такое не запускают: нужно не больше %s реплик (меньше GPU, больше TP, PP или CP) или больший глобальный батч"
	messagesZH[MsgBatchShort] = "%s 个数据并行副本 × 微批量 %s 超过了 %s 条序列的全局批量，Megatron-LM、torchtitan 和 llm-foundry 拒绝启动：最多使用 %s 个副本（减少 GPU，或增大 TP、PP、CP），或增大全局批量"
	messagesEN[MsgBatchUneven] = "a global batch of %s is not a multiple of %s replicas × micro-batch %s, which the stacks refuse: timed at %s"
	MessagesRU[MsgBatchUneven] = "глобальный батч %s не кратен %s репликам × микробатч %s, и стеки такое не запускают: рассчитано для %s"
	messagesZH[MsgBatchUneven] = "全局批量 %s 不是 %s 个副本 × 微批量 %s 的倍数，训练框架会拒绝：按 %s 计算"
	messagesEN[MsgBatchRaised] = "the default global batch for this model size (%s sequences) is short of %s replicas × micro-batch %s, which the stacks refuse: timed at %s sequences a step, as runs grow their batch with their GPUs (Llama 3 405B: 16M tokens on 16,384 H100s); the global batch field holds one of your own"
	MessagesRU[MsgBatchRaised] = "глобального батча по умолчанию для модели такого размера (%s последовательностей) не хватает на %s реплик × микробатч %s, а стеки такое не запускают: рассчитано для %s последовательностей на шаг, ведь прогоны растят батч вместе с числом GPU (Llama 3 405B: 16 млн токенов на 16 384 H100); своё значение задаётся в поле «Глобальный пакет»"
	messagesZH[MsgBatchRaised] = "该规模模型的默认全局批量（%s 条序列）不足以喂满 %s 个副本 × 微批量 %s，训练框架会拒绝：按每步 %s 条序列计算，因为训练会随 GPU 数增大批量（Llama 3 405B：16,384 块 H100 上 1600 万 token）；可在“全局批量”中填写自己的值"
	messagesEN[MsgWholeRun] = "whole run %s at %s goodput (restarts, checkpoints; Llama 3 §3.3.4, an estimate)"
	MessagesRU[MsgWholeRun] = "весь прогон %s при доле полезного времени %s (перезапуски, чекпоинты; Llama 3 §3.3.4, оценка)"
	messagesZH[MsgWholeRun] = "整个训练 %s，有效时间占比 %s（重启、检查点；Llama 3 §3.3.4，估计）"
}

// batchShortErr is the GPUs field's problem for a layout whose replicas ×
// micro-batch exceed the global batch (estimator.BatchLimitError).
func batchShortErr(b estimator.TrainBatch) FieldErr {
	return FieldErr{Key: MsgBatchShort, Value: strconv.Itoa(b.Replicas),
		Args: [3]string{strconv.Itoa(b.Micro), strconv.FormatFloat(b.Global, 'f', -1, 64), strconv.Itoa(max(1, b.MaxReplicas()))}}
}

// batchShortText is a MsgBatchShort problem in l's numbers.
func (l Locale) batchShortText(e FieldErr) string {
	n := func(s string) string {
		v, _ := strconv.ParseFloat(s, 64)
		return l.Given(v)
	}
	return Fill(l.T(MsgBatchShort), n(e.Value), n(e.Args[0]), n(e.Args[1]), n(e.Args[2]))
}

// wholeRun is the training detail's note beside the steps' time and
// GPU-hours: the whole run's at its goodput, where that changes the
// goodput shown to one decimal (below 99.95%; GPUs past about 80).
func (b *viewBuilder) wholeRun(r estimator.TrainRun) (time, hours string) {
	if !(r.Goodput > 0 && r.Goodput < 0.9995) {
		return "", ""
	}
	l := b.l
	g := l.Fixed(100*r.Goodput, 1) + "%"
	msg := b.t(MsgWholeRun)
	return Fill(msg, l.Duration(r.SecondsWithOverhead), g), Fill(msg, l.Rate(r.GPUHoursWithOverhead), g)
}

// unevenBatch is the optimizer steps' note on the global batch, as the
// CLI's warnings say it: a batch the user gave that is not a multiple of
// the replicas' micro-batches (estimator.TrainBatch.Uneven) is timed
// rounded down; pre-training's default batch that feeds fewer replicas
// than the layout has (TrainBatch.Raised) is timed raised to one
// micro-batch a replica.
func (b *viewBuilder) unevenBatch(j Job) string {
	tb := estimator.TrainBatchOf(j.In, j.Work)
	l := b.l
	switch {
	case tb.Raised():
		return Fill(b.t(MsgBatchRaised), l.Count(int64(tb.Global)), l.Count(int64(tb.Replicas)), l.Count(int64(tb.Micro)), l.Count(int64(tb.Needed())))
	case tb.Uneven():
		return Fill(b.t(MsgBatchUneven), l.Count(int64(tb.Global)), l.Count(int64(tb.Replicas)), l.Count(int64(tb.Micro)), l.Count(int64(tb.Rounded())))
	}
	return ""
}

// joinDetail joins a fact's details that are set, with "; ".
func joinDetail(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}
