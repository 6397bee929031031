package page

// The planner's sentences (planner.Reason: a message key and its arguments)
// in the page's languages. English comes from the planner itself
// (planner.English), but for the sentences that send a CLI user to a flag
// (--emit, --zero, --global-batch-tokens, --max-instances): the page names
// its own control or section instead, in every language. Russian and
// Chinese take the same keys with the same arguments in the same order
// (%[n]s may reorder them). A test fails when a key has no text here.

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"rightsize/estimator"
	planner "rightsize/estimator/plan"
)

// PlanMessages are the planner's sentences by language, each a table
// indexed by planner.Msg (as Messages are the page's own). English's
// holds only the page's words for the sentences that name a CLI flag;
// every other English sentence is the planner's (planner.English), and
// PlanText falls back to it.
var PlanMessages = map[string]*[planner.NMsgs]string{"en": &planEN, "ru": &planRU, "zh": &planZH}

// PlanText is the text of the planner's sentence m in lang, falling back
// to the planner's English.
func PlanText(lang string, m planner.Msg) string {
	if t, ok := PlanMessages[lang]; ok && m >= 0 && m < planner.NMsgs && t[m] != "" {
		return t[m]
	}
	if m >= 0 && m < planner.NMsgs {
		return planner.English[m]
	}
	return ""
}

var planEN = [planner.NMsgs]string{
	planner.MsgFitLayoutOOM:         "%s GiB per GPU short at the layout given (%s GPUs, TP %s, PP %s, ZeRO %s): raise the ZeRO stage or turn on gradient checkpointing, or clear GPUs, Tensor parallel and Pipeline stages to let the plan choose",
	planner.MsgFitBatchShortLitGPT:  "%s GPUs need more sequences a step than the global batch's %s, which LitGPT's fine-tune scripts refuse at the start (each device takes one sequence or more, TrainArgs in litgpt/args.py); they run data-parallel only (no TP, PP or CP): at most %s GPUs, or a larger global batch (the global batch field; Run it below writes it as --train.global_batch_size)",
	planner.MsgFitLitGPTQLoRA:       "LitGPT's lora.py runs QLoRA on one GPU only (\"Quantization is currently not supported for multi-GPU training\"), not on %s: plan 1 GPU on an instance of one GPU, or LoRA",
	planner.MsgFitLitGPTLayout:      "LitGPT's fine-tune scripts run one GPU as the job is, or on more FSDP full shard (ZeRO-3) with every Block recomputed and nothing offloaded, not the layout given (%s GPUs, TP %s, PP %s, ZeRO %s, with its checkpointing and offload): clear GPUs, ZeRO stage, gradient checkpointing and offload to plan LitGPT's",
	planner.MsgNoteStackDP:          "data-parallel (TP 1 × PP 1) at ZeRO-%s: FSDP or DeepSpeed runs it, and Run it below writes its launch",
	planner.MsgNoteStackDPFT:        "data-parallel (TP 1 × PP 1) at ZeRO-%s, as fine-tunes of a Hugging Face checkpoint run on FSDP or DeepSpeed (Run it below writes its launch), with no checkpoint conversion for a tensor-parallel stack",
	planner.MsgNoteStackDPZero1:     "data-parallel (TP 1 × PP 1) at ZeRO-%s: DeepSpeed runs it, FSDP as SHARD_GRAD_OP (it has no optimizer-only sharding, so it shards the gradients too, in less memory), and Run it below writes its launch",
	planner.MsgNoteStackDPFTZero1:   "data-parallel (TP 1 × PP 1) at ZeRO-%s, as fine-tunes of a Hugging Face checkpoint run on DeepSpeed, or on FSDP as SHARD_GRAD_OP (it has no optimizer-only sharding, so it shards the gradients too, in less memory); Run it below writes its launch, with no checkpoint conversion for a tensor-parallel stack",
	planner.MsgNoteStackLitGPT:      "LitGPT's layout on %s GPU(s) at ZeRO-%s, as its fine-tune scripts run one (as the job is) or more (FSDP full shard, every Block recomputed, nothing offloaded): Run it below writes its launch",
	planner.MsgNoteStackMegatron:    "TP %s × PP %s at ZeRO-%s: Megatron-LM or NeMo runs this split (their distributed optimizer is ZeRO-1); Run it below writes data-parallel launches only",
	planner.MsgNoteStackMegatronFT:  "TP %s × PP %s at ZeRO-%s, as no data-parallel layout fits these GPUs: Megatron-LM or NeMo runs this split after converting the checkpoint (their distributed optimizer is ZeRO-1); Run it below writes data-parallel launches only",
	planner.MsgNoteStackTorchtitan:  "TP %s × PP %s at ZeRO-%s: torchtitan runs this split (FSDP2 with --parallelism.tensor_parallel_degree and pipeline_parallel_degree); Run it below writes data-parallel launches only",
	planner.MsgNoteStackNone:        "TP %s × PP %s at ZeRO-%s runs on no training stack: Megatron-LM shards optimizer states only (ZeRO-1), torchtitan pre-trains Llama 3, Qwen3 and DeepSeek-V3 only, and a QLoRA base shards data-parallel only; set ZeRO stage to 1 or Tensor parallel to 1",
	planner.MsgNoteScaleStopBatch:   "scaling out stops here: more data-parallel replicas would step more than the job's global batch of %s tokens (Global batch sets it)",
	planner.MsgNoteScaleStopBatchFT: "scaling out stops here: more data-parallel replicas would step more than %s sequences (%s tokens), a fine-tune's usual global batch (Stanford Alpaca, alpaca-lora); a larger one is another training recipe (Global batch sets it)",
	planner.MsgNoteScaleStopLimit:   "scaling out stops here: doubling again would pass the planner's limit of %s instances",
	planner.MsgNotePastLimitCheaper: "cheaper past the planner's limit of %s instances: %s would carry the rate at about %s, %s× the cheapest pick's bill, on %s instances, more than the page plans",
	planner.MsgNotePastLimitOnly:    "past the planner's limit of %s instances: %s would carry the rate at about %s, on %s instances, more than the page plans",
	planner.MsgDisaggPastLimit:      "none within the planner's limit: the cheapest takes %s instances, more than the %s the page plans, on %s, prefill workers of TP %s × %s (%s) and decode workers of TP %s × %s (%s), at %s, %s× the aggregated plan%s",
}

var planRU = [planner.NMsgs]string{
	planner.MsgFitOK:                     "помещается с запасом %s на GPU",
	planner.MsgFitNoHardware:             "в каталоге нет скоростных характеристик этого GPU",
	planner.MsgFitBatchShort:             "%s реплик данных нужно больше последовательностей за шаг, чем %s в глобальном батче, — такую раскладку Megatron-LM, torchtitan и стеки FSDP не запускают: не больше %s реплик (меньше GPU, больше TP или PP, контекстный параллелизм) или больший глобальный батч",
	planner.MsgFitNoPrice:                "нет цены %s",
	planner.MsgFitNoFX:                   "нет курса для %s",
	planner.MsgFitFractionTraining:       "доля GPU годится только для инференса",
	planner.MsgFitTooBig:                 "нужно больше %s инстансов",
	planner.MsgFitInsideMargin:           "помещается, оставляя не больше %s ГиБ на GPU свободными, — в пределах погрешности оценки памяти (%s%% памяти GPU): план рисковал бы нехваткой памяти",
	planner.MsgNoteInsideMargin:          "заданная раскладка помещается, оставляя %s ГиБ на GPU свободными, — в пределах погрешности оценки памяти (%s%% памяти GPU): всплеск фрагментации может исчерпать память",
	planner.MsgNoteIdleGPUs:              "заданная раскладка работает на %s из %s арендованных GPU; %s простаивают, но оплачены",
	planner.MsgNoteIdleGPUsAll:           "заданная раскладка работает на %s из %s арендованных GPU; %s простаивают, но оплачены: та же задача с DP %s на всех займёт %s за %s",
	planner.MsgFitLayoutOOM:              "при заданной раскладке (%[2]s GPU, TP %[3]s, PP %[4]s, ZeRO %[5]s) не хватает %[1]s ГиБ на GPU: поднимите стадию ZeRO или включите пересчёт активаций либо очистите поля числа GPU, тензорного и конвейерного параллелизма, чтобы план выбрал сам",
	planner.MsgFitEngineGPU:              "%s не запускается на GPU %s",
	planner.MsgFitLayoutRefused:          "%s не запускает заданную раскладку (attention DP %s, EP %s) на GPU %s так, как она оценена, и её запуск отказывает: all-to-all DeepEP требует GPU Hopper или Blackwell, связанных NVLink, балансировщик EP — GPU CUDA или ROCm; оставьте DP и EP пустыми, чтобы план выбрал сам",
	planner.MsgFitEngineRelease:          "%s %s не запускается на GPU %s: его релизы начиная с %s собраны без их ядер (более ранний релиз там работает)",
	planner.MsgFitBatchShortLitGPT:       "%s GPU нужно больше последовательностей за шаг, чем %s в глобальном батче, и скрипты дообучения LitGPT такое не запускают (каждому устройству нужна хотя бы одна последовательность, TrainArgs в litgpt/args.py); они работают только с параллелизмом по данным (без TP, PP и CP): не больше %s GPU или больший глобальный батч (поле «Глобальный пакет»; раздел «Запустить» ниже запишет его как --train.global_batch_size)",
	planner.MsgFitLitGPTQLoRA:            "lora.py из LitGPT запускает QLoRA только на одном GPU (\"Quantization is currently not supported for multi-GPU training\"), а не на %s: выберите 1 GPU на инстансе с одним GPU или LoRA",
	planner.MsgFitLitGPTLayout:           "скрипты дообучения LitGPT запускают задачу на одном GPU как есть, а на нескольких — FSDP с полным шардированием (ZeRO-3), пересчётом активаций каждого блока и без выгрузки, но не заданную раскладку (%s GPU, TP %s, PP %s, ZeRO %s, с её пересчётом и выгрузкой): очистите поля числа GPU, стадии ZeRO, пересчёта активаций и выгрузки, чтобы план выбрал раскладку LitGPT",
	planner.MsgFitNoFabric:               "один инстанс не вмещает задачу, а провайдер не указывает кластерную сеть между инстансами (разрешите неизвестные сети, чтобы планировать на нескольких)",
	planner.MsgFitSpanNode:               "один инстанс не вмещает задачу, а одну копию модели для сервинга не делят между инстансами без NVLink между их GPU: многоузловой сервинг работает на целых NVLink-узлах (возьмите инстанс с большим числом GPU или GPU с большей памятью)",
	planner.MsgFitNoFabricOwn:            "один инстанс не вмещает задачу, а ваш прайс-лист не указывает сеть между вашими инстансами: задайте в строке network_gbps и network_fabric (или разрешите неизвестные сети), чтобы планировать на нескольких",
	planner.MsgFitOverBudget:             "дороже бюджета",
	planner.MsgFitPastDeadline:           "не успевает к сроку",
	planner.MsgFitOwnMoreGPUs:            "%s × %s не вмещает задачу; вместил бы один инстанс из %s × %s, при %s",
	planner.MsgFitOwnGPUs:                "%s × %s не вмещает одну копию модели: %s ГиБ на GPU при TP %s, доступно %s ГиБ; вместил бы один инстанс из %s × %s, при %s",
	planner.MsgFitOwnGPUsOrWeights:       "%s × %s не вмещает одну копию модели: %s ГиБ на GPU при TP %s, доступно %s ГиБ; вместил бы один инстанс из %s × %s, при %s, или веса %s на этих GPU",
	planner.MsgFitOwnWeights:             "%s × %s не вмещает одну копию модели: %s ГиБ на GPU при TP %s, доступно %s ГиБ; на этих GPU поместятся веса %s (ни один инстанс из не более чем 8 таких GPU не вмещает задачу как задано, а чтобы планировать на нескольких инстансах, задайте в строке network_gbps и network_fabric)",
	planner.MsgHostOK:                    "хост соответствует правилу из руководств",
	planner.MsgHostUnknown:               "у предложения не указаны vCPU или RAM",
	planner.MsgHostFewVCPUs:              "%s vCPU на GPU — меньше %s на GPU, которые руководства по подбору хоста дают для этой задачи: на них работают загрузчики данных, токенизация и фронтенд сервинга, и при нехватке GPU простаивают (мягкое правило: токенизируйте данные заранее или возьмите хост крупнее)",
	planner.MsgHostLittleRAM:             "%s ГиБ RAM на GPU — меньше %s ГиБ на GPU, которые руководства по подбору хоста дают для этой задачи: память нужна для загрузки чекпойнта и закреплённых буферов загрузчика данных (мягкое правило: загружайте веса по шардам или через mmap либо возьмите хост крупнее)",
	planner.MsgHostOffloadUnlisted:       "выгрузке на CPU нужно %s ГиБ ОЗУ хоста, а предложение не указывает ОЗУ",
	planner.MsgHostOffloadRAM:            "выгрузке на CPU нужно %s ГиБ RAM хоста, у инстанса %s ГиБ",
	planner.MsgSLOTTFTPrefill:            "TTFT ограничен префиллом: %s с на один промпт на свободной реплике",
	planner.MsgSLOTPOTBandwidth:          "TPOT ограничен полосой памяти: %s с на токен даже для одного запроса",
	planner.MsgSLOTPOTCompute:            "TPOT ограничен вычислениями: %s с на токен даже для одного запроса",
	planner.MsgSLOTPOTHost:               "TPOT ограничен хостом и накладными расходами движка: %s с на токен даже для одного запроса",
	planner.MsgSLOTPOTCommunication:      "TPOT ограничен обменом тензорного параллелизма: %s с на токен даже для одного запроса",
	planner.MsgSLOKVPool:                 "пул KV не вмещает ни одного запроса",
	planner.MsgNoneLatency:               "целевые задержки недостижимы (%s)",
	planner.MsgNoneLatency2:              "целевые задержки недостижимы (%s; %s)",
	planner.MsgNoneTTFTFloor:             "TTFT в лучшем случае %s с, один промпт на свободной реплике на %s, при цели %s с: задайте цель длиннее или промпты короче",
	planner.MsgNoneTPOTFloor:             "TPOT в лучшем случае %s с, одна последовательность без других на %s, при цели %s с: задайте цель длиннее, более лёгкие веса или модель меньше",
	planner.MsgSpotServing:               "вытеснение спот-инстансов нарушает SLO, если нет запасной реплики; она добавлена",
	planner.MsgReasonCheapest:            "%s: самый дешёвый из подходящих, %s; следующий, %s, дороже в %s× при скорости %s×",
	planner.MsgReasonCheapestAlone:       "%s: единственный подходящий вариант среди цен без пометок, %s",
	planner.MsgReasonCheapestFlagged:     "%s: единственный подходящий вариант среди цен с пометками не хуже его собственной, %s",
	planner.MsgReasonCheapestOnly:        "%s: единственный подходящий вариант, %s",
	planner.MsgReasonCheapestOwnTie:      "%s: самый дешёвый из подходящих, %s; %s стоит столько же, и при равной цене выбрана ваша",
	planner.MsgReasonCheapestTwin:        "%s: самый дешёвый из подходящих, %s; %s стоит столько же и работает так же быстро",
	planner.MsgReasonCheapestTie:         "%s: самый дешёвый из подходящих, %s: в пределах %s%% от наименьшей стоимости (%s, %s) при скорости %s×",
	planner.MsgReasonCostTie:             "%s: %s дороже не более чем на %s%% и работает в %s× быстрее",
	planner.MsgReasonFastest:             "%s: в %s× быстрее самого дешёвого варианта при %s× его стоимости, %s",
	planner.MsgReasonFastestTie:          "%s: в %s× быстрее самого дешёвого варианта при %s× его стоимости, %s, — в пределах %s%% от наименьшего времени среди вариантов не дороже %s× этой стоимости (%s, %s)",
	planner.MsgReasonFastestCheapestTie:  "%s: самый дешёвый вариант и самый быстрый, %s: в пределах %s%% от наименьшего времени (%s, %s) при %s× его стоимости",
	planner.MsgReasonNoAlternative:       "%s: ни один вариант не дороже %s× его стоимости не быстрее хотя бы на %s%%, поэтому более быстрый вариант не показан; самый быстрый, %s, в %s× быстрее при %s× стоимости",
	planner.MsgReasonPastBound:           "%s: в %s× быстрее самого дешёвого варианта при %s× его стоимости — дороже предела для более быстрой альтернативы, %s× его стоимости",
	planner.MsgReasonFastestPassed:       "%s: в %s× быстрее, чем %s, — в пределах %s%%, которых оценка не различает, — при %s× его стоимости: не выбран самым быстрым",
	planner.MsgReasonValue:               "%s: излом кривой «цена—время», %s× стоимости самого дешёвого при %s× его скорости",
	planner.MsgReasonPareto:              "%s: нет варианта одновременно дешевле и быстрее",
	planner.MsgReasonFastestIsCheapest:   "%s: самый дешёвый вариант и самый быстрый, %s",
	planner.MsgReasonValueIsCheapest:     "%s: самый дешёвый вариант и есть лучшее соотношение цены и скорости: ни один более дорогой, не дороже %s× его стоимости, не окупает свою цену скоростью",
	planner.MsgReasonValueIsFastest:      "%s: самый быстрый вариант и есть лучшее соотношение, в %s× дороже самого дешёвого при скорости %s×",
	planner.MsgReasonValueIsFaster:       "%s: более быстрый вариант и есть лучшее соотношение, в %s× дороже самого дешёвого при скорости %s×",
	planner.MsgReasonNone:                "%s: есть вариант и дешевле, и быстрее (%s)",
	planner.MsgReasonTie:                 "%s: не быстрее %s, который стоит не дороже, больше чем на %s%%",
	planner.MsgReasonStale:               "%s: цена от %s старше окна свежести в %s дней, а у этого GPU есть более свежая цена, которая подходит: не выбрано (проверьте цену, чтобы выбрать)",
	planner.MsgReasonStaleEstimated:      "%s: дата цены, %s, оценочная, а у этого GPU есть цена с датой в пределах окна свежести: не выбрано (проверьте цену, чтобы выбрать)",
	planner.MsgReasonStaleElsewhere:      "%s: цена от %s старше окна свежести в %s дней, а задачу выполняют планы с ценами в пределах окна: не выбрано (проверьте цену, чтобы выбрать)",
	planner.MsgReasonStaleEstElsewhere:   "%s: дата цены, %s, оценочная, а задачу выполняют планы с ценами, датированными в пределах окна свежести: не выбрано (проверьте цену, чтобы выбрать)",
	planner.MsgReasonStaleUndated:        "%s: у цены нет даты, а у этого GPU есть цена с датой в пределах окна свежести: не выбрано (проверьте цену, чтобы выбрать)",
	planner.MsgReasonHostShort:           "%s: хост меньше, чем руководства по подбору дают для этой задачи (%s), а предложение с достаточным хостом тянет задачу: не выбрано",
	planner.MsgReasonFarBelow:            "%s: меньше половины того, что просят другие провайдеры за этот GPU, а у него есть предложение с обычной ценой: не выбрано (проверьте цену, чтобы выбрать)",
	planner.MsgReasonSpotFarBelow:        "%s: спотовая цена ниже %s%% от его же цены по требованию — глубже скидок, которые объявляют облака, а задачу выполняют другие планы: не выбрано (проверьте цену, чтобы выбрать)",
	planner.MsgReasonFarBelowElsewhere:   "%s: меньше половины того, что просят другие провайдеры за этот GPU, а планы с обычными ценами тянут задачу: не выбрано (проверьте цену, чтобы выбрать)",
	planner.MsgReasonToVerify:            "%s: источник называет эту цену нижней границей («от») или оставляет её условие открытым (сноску, столбец или регион), а подтверждённая цена этого GPU тянет задачу: не выбрано (проверьте цену, чтобы выбрать)",
	planner.MsgReasonToVerifyElsewhere:   "%s: источник называет эту цену нижней границей («от») или оставляет её условие открытым (сноску, столбец или регион), а задачу выполняют планы с подтверждёнными ценами: не выбрано (проверьте цену, чтобы выбрать)",
	planner.MsgNoteWideEPNetwork:         "эксперты не распределены по инстансам (широкий экспертный параллелизм): провайдер не указывает между ними RDMA-сеть (InfiniBand, RoCE, EFA) или %s Гбит/с на GPU, на которых работают all-to-all DeepEP и многоузловые руководства (межузловым ядрам DeepEP нужен GPUDirect RDMA; GPUDirect-TCPX/TCPXO от Google переносят только NCCL); копия идёт конвейерными стадиями",
	planner.MsgNoteNVLinkRack:            "каждая копия занимает %s лотков одного NVLink-домена (стойка из %s лотков, %s GPU, соединённых NVLink): обмен между её лотками идёт по NVLink, а не по сети",
	planner.MsgNoteRedundantExperts:      "EP %s не делит %s экспертов модели: план добавляет %s избыточных копий экспертов, по %s на GPU (SGLang --ep-num-redundant-experts, vLLM --enable-eplb --eplb-config num_redundant_experts, num_slots балансировщика MoE в TensorRT-LLM), как рецепт NVIDIA Dynamo для DeepSeek-R1 на GB200 запускает EP 48 с 32",
	planner.MsgNoteRentalUnit:            "провайдер сдаёт эти инстансы только целыми заказами по %s (%s GPU): план использует %s из %s оплаченных инстансов, остальные простаивают",
	planner.MsgNoteRentalUnitCopies:      "провайдер сдаёт эти инстансы только целыми заказами по %s (%s GPU): план использует %s из %s оплаченных инстансов; копий этой раскладки, которые без доплаты поместятся на простаивающих (запас сверх целевой нагрузки): %s",
	planner.MsgNoteNetworkAssumed:        "сеть между узлами неизвестна: принято %s Гбит/с",
	planner.MsgNoteAccountsLocal:         "провайдер открывает аккаунты только юрлицам, зарегистрированным в %s, его стране: для аренды нужно такое юрлицо",
	planner.MsgNoteSpotDefaultRate:       "частота вытеснения спота неизвестна: принято %s%% инстансов в месяц",
	planner.MsgNoteReservedCommitment:    "резервирование оплачивается за каждый час срока: %s за %s г. (%s), дешевле аренды по требованию лишь при загрузке выше %s%%",
	planner.MsgNoteReservedTerm:          "резервирование оплачивается за каждый час срока: %s за %s г. (%s)",
	planner.MsgNoteVATExcluded:           "цены приведены без НДС %s%%",
	planner.MsgNoteNoFX:                  "нет курса для %s: предложения с ценами в этой валюте (%s) в план не вошли",
	planner.MsgNoteVATIncluded:           "цены включают НДС %s%%",
	planner.MsgNoteWeightsSubstituted:    "для весов %s в этом движке нет ядер на GPU %s: план посчитан с весами %s",
	planner.MsgNoteFP16ForBF16:           "%s не работает на GPU %s: вместо него %s, память та же",
	planner.MsgNoteQuantRefusedModel:     "vLLM не запускает модели %[2]s в %[1]s на GPU %[3]s: его ядра для них принимают активации fp16 или bf16, а fp16 для этой модели он отвергает (численная нестабильность), когда у GPU нет bf16; план — веса %[4]s из неквантованного чекпойнта и KV-кэш %[5]s (SGLang запускает квантованную модель в fp16 начиная с Turing; на GPU Ampere и новее её запускает vLLM)",
	planner.MsgNoteFP16RefusedModel:      "vLLM не запускает модели %s в fp16 (численная нестабильность): на GPU %s он работает с весами %s и KV-кэшем %s",
	planner.MsgNoteRentalNoOffload:       "план без вашей выгрузки на CPU (%s): арендованный парк держит задачу на своих GPU, быстрее",
	planner.MsgNoteRentalLayoutCkpt:      "план с контрольными точками активаций: арендованный парк берёт самую дешёвую раскладку памяти (стадия ZeRO, контрольные точки), а не настройки ваших GPU",
	planner.MsgNoteRentalLayoutNoCkpt:    "план без контрольных точек активаций: арендованный парк берёт самую дешёвую раскладку памяти (стадия ZeRO, контрольные точки), а не настройки ваших GPU",
	planner.MsgNoteStackDP:               "параллелизм по данным (TP 1 × PP 1) с ZeRO-%s: его запускают FSDP или DeepSpeed, а раздел «Запустить» ниже пишет запуск",
	planner.MsgNoteStackDPFT:             "параллелизм по данным (TP 1 × PP 1) с ZeRO-%s — так дообучают чекпойнт Hugging Face на FSDP или DeepSpeed (раздел «Запустить» ниже пишет запуск), без конвертации чекпойнта для тензорного параллелизма",
	planner.MsgNoteStackDPZero1:          "параллелизм по данным (TP 1 × PP 1) с ZeRO-%s: его запускает DeepSpeed, а FSDP — как SHARD_GRAD_OP (шардирования только состояний оптимизатора в нём нет, поэтому шардируются и градиенты, памяти нужно меньше); раздел «Запустить» ниже пишет запуск",
	planner.MsgNoteStackDPFTZero1:        "параллелизм по данным (TP 1 × PP 1) с ZeRO-%s — так дообучают чекпойнт Hugging Face на DeepSpeed или на FSDP как SHARD_GRAD_OP (шардирования только состояний оптимизатора в нём нет, поэтому шардируются и градиенты, памяти нужно меньше); раздел «Запустить» ниже пишет запуск, без конвертации чекпойнта для тензорного параллелизма",
	planner.MsgNoteStackLitGPT:           "раскладка LitGPT: GPU — %s, ZeRO-%s, как её запускают скрипты дообучения LitGPT (один GPU — как есть; несколько — FSDP с полным шардированием, пересчётом активаций каждого блока и без выгрузки): раздел «Запустить» ниже пишет запуск",
	planner.MsgNoteStackMegatron:         "TP %s × PP %s с ZeRO-%s: такое разбиение запускают Megatron-LM или NeMo (их распределённый оптимизатор — это ZeRO-1); раздел «Запустить» пишет только запуски с параллелизмом по данным",
	planner.MsgNoteStackMegatronFT:       "TP %s × PP %s с ZeRO-%s, так как на этих GPU не помещается ни одна раскладка с параллелизмом по данным: такое разбиение запускают Megatron-LM или NeMo после конвертации чекпойнта (их распределённый оптимизатор — это ZeRO-1); раздел «Запустить» пишет только запуски с параллелизмом по данным",
	planner.MsgNoteStackTorchtitan:       "TP %s × PP %s с ZeRO-%s: такое разбиение запускает torchtitan (FSDP2 с --parallelism.tensor_parallel_degree и pipeline_parallel_degree); раздел «Запустить» пишет только запуски с параллелизмом по данным",
	planner.MsgNoteStackNone:             "TP %s × PP %s с ZeRO-%s не запускает ни один стек обучения: Megatron-LM шардирует только состояния оптимизатора (ZeRO-1), torchtitan предобучает только Llama 3, Qwen3 и DeepSeek-V3, а базу QLoRA шардируют только по данным; поставьте «Стадия ZeRO» 1 или «Тензорный параллелизм» 1",
	planner.MsgNoteScaleOut:              "масштабировано с %s до %s инстансов: в %s× быстрее, чем на наименьшем числе, вмещающем задачу, за %s× стоимости (каждое удвоение должно ускорять в 1,5×, правило масштабирования CSC)",
	planner.MsgNoteScaleOutDeadline:      "масштабировано с %s до %s инстансов: в %s× быстрее, чем на наименьшем числе, укладывающемся в срок, за %s× стоимости (каждое удвоение должно ускорять в 1,5×, правило масштабирования CSC)",
	planner.MsgNoteScaleStopSlow:         "дальше масштабировать не стоит: удвоение до %s инстансов ускорит задачу в %s× за %s× стоимости, меньше 1,5×, которые должно дать удвоение",
	planner.MsgNoteScaleStopComm:         "дальше масштабировать не стоит: удвоение до %s инстансов ускорит задачу в %s× за %s× стоимости, меньше 1,5×, которые должно дать удвоение: не скрытый вычислениями обмен занимает всё большую долю шага",
	planner.MsgNoteBatchWider:            "глобальный батч в %s последовательностей вмещает не больше %s реплик данных при этой раскладке (каждая берёт за шаг микробатч или больше, а при батче по умолчанию — столько, сколько у неё стадий конвейера), поэтому этот парк запускает меньше реплик, но шире: %s по %s GPU каждая (TP %s × PP %s × CP %s), — так опубликованные прогоны масштабируются дальше своего батча (Llama 3 405B: TP 8 × CP × PP 16, статья о Llama 3, §3.3.2); время учитывает цену каждого разбиения: all-reduce в TP, простой конвейера в PP, кольцо ключей и значений в CP",
	planner.MsgNoteScaleStopBatch:        "дальше масштабировать нельзя: больше реплик данных обрабатывали бы за шаг больше глобального батча задачи в %s токенов (его задаёт поле «Глобальный пакет»)",
	planner.MsgNoteScaleStopBatchFT:      "дальше масштабировать нельзя: больше реплик данных обрабатывали бы за шаг больше %s последовательностей (%s токенов), обычного глобального батча дообучения (Stanford Alpaca, alpaca-lora); больший батч — уже другой рецепт обучения (его задаёт поле «Глобальный пакет»)",
	planner.MsgNoteFTBatchLarge:          "%s последовательностей за шаг — больше обычного глобального батча дообучения в 128 (Stanford Alpaca, alpaca-lora): каждая из %s реплик данных обрабатывает свой микробатч, поэтому рецепт обучения (батч и подобранный под него learning rate) отличается от обычного (меньше инстансов сохраняют обычный батч, но работают дольше)",
	planner.MsgNoteScaleStopLimit:        "дальше масштабировать нельзя: следующее удвоение превысит предел планировщика в %s инстансов",
	planner.MsgNoteScaleStopLayout:       "дальше масштабировать нельзя: на %s инстансах ни одна раскладка не запускается ни на одном стеке обучения",
	planner.MsgNoteMemShare:              "значение --mem-fraction-static по умолчанию в SGLang не оставляет места под KV-кэш при DP внимания %s; план задаёт %s, как многоузловые рецепты SGLang для DeepSeek-R1 (InferenceX, H100)",
	planner.MsgNoteNoSpare:               "одна реплика с загрузкой %s%% обслуживает весь поток: запаса на случай отказа нет (добавьте одну для N+1)",
	planner.MsgNotePastLimitCheaper:      "дешевле за пределом планировщика в %s инстансов: %s выдержит поток примерно за %s, %s× счёта самого дешёвого варианта, на %s инстансах — больше, чем планирует страница",
	planner.MsgNotePastLimitOnly:         "за пределом планировщика в %s инстансов: %s выдержит поток примерно за %s, на %s инстансах — больше, чем планирует страница",
	planner.MsgNoteTTFTBinds:             "число реплик задаёт цель по TTFT: один промпт без других ждёт первого токена %s с, %s%% цели в %s с, поэтому каждая реплика загружена на %s%%; с целью длиннее каждая обслужит больше",
	planner.MsgNoteTTFTDefaultRelax:      "цель по TTFT — значение по умолчанию, %s с для промптов в %s токенов (2 с или 0,2 с на 1000 токенов промпта, если это дольше, по серверным лимитам MLPerf Inference), и она задаёт число реплик самого дешёвого варианта: %s за %s; при TTFT %s с — %s× prefill одного промпта на нём — самый дешёвый вариант %s за %s; задайте TTFT, приемлемый для ваших пользователей",
	planner.MsgNoteTPOTBinds:             "число реплик задаёт цель по TPOT: одна последовательность без других декодирует %s с на токен, %s%% цели в %s с, поэтому каждая реплика загружена на %s%%; с целью длиннее каждая обслужит больше",
	planner.MsgNoteServingEngine:         "для сервинга принят непрерывный батчинг (vLLM)",
	planner.MsgNotePastCardContext:       "запрос в %s токенов длиннее контекста в %s токенов, заявленного в карточке модели: движки его обслужат (в конфиге %s позиций, это --max-model-len vLLM по умолчанию), но качество за пределами заявленного контекста карточка не обещает; планируйте запросы в его пределах или проверьте модель на такой длине",
	planner.MsgNoteBF16StatesZero:        "состояния оптимизатора в bf16 держит распределённый оптимизатор: план перебирает только ZeRO от 1 до 3 (заданная стадия ZeRO сохраняется)",
	planner.MsgNoteBatchEngine:           "пакетный инференс посчитан на vLLM (непрерывный батчинг, офлайн LLM.generate) — на движке, который запускают настройки запуска",
	planner.MsgNoteBatchEngineEncoder:    "модель не генерирует токены (энкодер или модель с входом фиксированной длины): пакет посчитан на HF transformers",
	planner.MsgNoteBatchHFGPU:            "посчитано на HF transformers: vLLM не работает на GPU %s",
	planner.MsgNoteBatchHFQuantModel:     "запланировано на HF transformers: vLLM не запускает модели %[2]s в %[1]s на GPU %[3]s (его ядра принимают активации fp16 или bf16, а fp16 для этой модели он отвергает)",
	planner.MsgNoteBatchHFWeights:        "посчитано на HF transformers: у vLLM нет ядра %s на GPU %s",
	planner.MsgNoteOwnNoRegion:           "регион не указан в вашем прайс-листе: строка оставлена, фильтр по региону не проверен",
	planner.MsgNoteOwnNoVCPUs:            "число vCPU не указано в вашем прайс-листе: строка оставлена, минимум vCPU не проверен",
	planner.MsgNoteOwnNoRAM:              "объём RAM не указан в вашем прайс-листе: строка оставлена, минимум RAM не проверен",
	planner.MsgNoteOwnNoCountry:          "страна вашего провайдера неизвестна: строка оставлена, фильтр по стране не проверен",
	planner.MsgHostedCheaperThanAPI:      "свой сервер на %s выгоднее %s при нагрузке выше %s запросов/с",
	planner.MsgHostedCheaperThanAPIAbove: "свой сервер на %s выгоднее %s от %s запросов/с, пока поток держит одна реплика (до %s запросов/с), и при любой нагрузке выше %s; между ними нагрузка, которой нужна ещё одна реплика, может обойтись дороже токенов API",
	planner.MsgHostedNever:               "%s остаётся дешевле своего сервера при любой нагрузке, которую держит одна реплика",
	planner.MsgDisaggSidesWin:            "окупается на %s: воркеры prefill по TP %s × %s (%s) и воркеры decode по TP %s × %s (%s), %s — на %s%% дешевле совместного плана при заданных целях (оценка)%s",
	planner.MsgDisaggRackSpan:            "; его воркеры занимают лотки одного NVLink-домена (%s на воркер prefill, %s на воркер decode; стойка из %s лотков, %s GPU, соединённых NVLink): обмен между лотками воркера идёт по NVLink, а не по сети",
	planner.MsgDisaggSidesLose:           "не окупается: самый дешёвый вариант, на %s, — воркеры prefill по TP %s × %s (%s) и воркеры decode по TP %s × %s (%s) — стоит %s, в %s× больше совместного плана%s",
	planner.MsgDisaggPastLimit:           "в пределе планировщика — ни одного: самый дешёвый вариант занимает %s инстансов, больше %s, которые планирует страница, на %s — воркеры prefill по TP %s × %s (%s) и воркеры decode по TP %s × %s (%s) — за %s, в %s× больше совместного плана%s",
	planner.MsgDisaggBoundTTFT:           "столько, сколько требует цель по TTFT",
	planner.MsgDisaggBoundTPOT:           "столько, сколько требует цель по TPOT",
	planner.MsgDisaggBoundRate:           "столько, сколько требует поток запросов при предельной загрузке",
	planner.MsgDisaggBoundRateKV:         "столько, сколько требует поток запросов при предельной загрузке; каждый декодирует не больше %s запросов сразу — столько вмещает его KV-кэш",
	planner.MsgDisaggBoundRateSeqs:       "столько, сколько требует поток запросов при предельной загрузке; каждый декодирует не больше %s запросов сразу — предел движка по числу последовательностей (%s)",
	planner.MsgDisaggBoundOne:            "достаточно одного",
	planner.MsgDisaggBoundSpare:          "%s; из них %s — запас на случай отзыва spot",
	planner.MsgHostedNoFit:               "ни один вариант своего сервера не подходит под задачу: сравнить с %s не с чем",
	planner.MsgHostedBatchAPI:            "API %s по %s/%s USD за 1M входных/выходных токенов, прайс от %s, выполнит пакет за %s — дешевле самого дешёвого своего сервера, %s за %s",
	planner.MsgHostedBatchSelf:           "API %s, самый дешёвый для модели, по %s/%s USD за 1M входных/выходных токенов, прайс от %s, выполнит пакет за %s — дороже самого дешёвого варианта своего сервера, %s за %s",
	planner.MsgHostedDayRentCheaper:      "за день по кривой нагрузки самый дешёвый арендованный парк, на %s, обходится дешевле, чем %s",
	planner.MsgHostedDayAPICheaper:       "за день по кривой нагрузки %s обходится дешевле самого дешёвого арендованного парка, на %s",
}

var planZH = [planner.NMsgs]string{
	planner.MsgFitOK:                     "装得下，每张 GPU 余量 %s",
	planner.MsgFitNoHardware:             "目录缺少此 GPU 的速度参数",
	planner.MsgFitBatchShort:             "%s 个数据并行副本每步需要的序列数超过全局批量的 %s 条，Megatron-LM、torchtitan 和 FSDP 框架拒绝这种布局：最多 %s 个副本（减少 GPU、增大 TP 或 PP、上下文并行），或增大全局批量",
	planner.MsgFitNoPrice:                "没有%s价格",
	planner.MsgFitNoFX:                   "没有 %s 的汇率",
	planner.MsgFitFractionTraining:       "GPU 切片仅用于推理",
	planner.MsgFitTooBig:                 "需要超过 %s 个实例",
	planner.MsgFitInsideMargin:           "最多只剩每个 GPU %s GiB 空闲，在显存估算的误差之内（GPU 显存的 %s%%）：按此计划有显存不足的风险",
	planner.MsgNoteInsideMargin:          "给定的并行布局每个 GPU 剩 %s GiB 空闲，在显存估算的误差之内（GPU 显存的 %s%%）：一次碎片峰值就可能导致显存不足",
	planner.MsgNoteIdleGPUs:              "给定的并行布局只用租用的 %[2]s 个 GPU 中的 %[1]s 个；%[3]s 个闲置但照样计费",
	planner.MsgNoteIdleGPUsAll:           "给定的并行布局只用租用的 %[2]s 个 GPU 中的 %[1]s 个；%[3]s 个闲置但照样计费：同一任务在全部 GPU 上以 DP %[4]s 运行需 %[5]s，花费 %[6]s",
	planner.MsgFitLayoutOOM:              "按给定的并行布局（%[2]s 个 GPU，TP %[3]s，PP %[4]s，ZeRO %[5]s）每个 GPU 缺 %[1]s GiB：请提高 ZeRO 阶段或开启梯度检查点，或清空 GPU 数、张量并行和流水线阶段，让计划自行选择",
	planner.MsgFitEngineGPU:              "%s 不支持 %s 架构的 GPU",
	planner.MsgFitLayoutRefused:          "%[1]s 无法按估算的方式在 %[4]s 架构的 GPU 上运行给定的布局（注意力 DP %[2]s，EP %[3]s），其启动命令会拒绝：DeepEP 的 all-to-all 需要以 NVLink 互联的 Hopper 或 Blackwell GPU，EP 负载均衡需要 CUDA 或 ROCm GPU；留空 DP 和 EP，让计划自行选择",
	planner.MsgFitEngineRelease:          "%s %s 不支持 %s 架构的 GPU：其 %s 及之后的版本构建时不含这些 GPU 的内核（更早的版本可在其上运行）",
	planner.MsgFitBatchShortLitGPT:       "%s 张 GPU 每步需要的序列数超过全局批量的 %s 条，LitGPT 的微调脚本在启动时即拒绝（每个设备至少需要一条序列，见 litgpt/args.py 的 TrainArgs）；它们只支持数据并行（没有 TP、PP 或 CP）：最多使用 %s 张 GPU，或增大全局批量（“全局批量”字段；下方“运行它”会写成 --train.global_batch_size）",
	planner.MsgFitLitGPTQLoRA:            "LitGPT 的 lora.py 只在单张 GPU 上运行 QLoRA（\"Quantization is currently not supported for multi-GPU training\"），不能在 %s 张上运行：请在单 GPU 实例上选用 1 张 GPU，或改用 LoRA",
	planner.MsgFitLitGPTLayout:           "LitGPT 的微调脚本在单张 GPU 上按任务原样运行，多张 GPU 上则用 FSDP 完全分片（ZeRO-3）、每个 Block 重算激活、不卸载，不运行给定的布局（%s 个 GPU，TP %s，PP %s，ZeRO %s，及其检查点和卸载设置）：清空 GPU 数、ZeRO 阶段、梯度检查点和卸载，让计划按 LitGPT 的布局规划",
	planner.MsgFitNoFabric:               "单个实例装不下，且提供商未标明实例之间的集群网络（允许未知网络后可跨实例规划）",
	planner.MsgFitSpanNode:               "单个实例装不下，且一个服务副本不会拆分到 GPU 之间没有 NVLink 的多个实例上：多节点服务运行在完整的 NVLink 节点上（请选 GPU 更多的实例，或显存更大的 GPU）",
	planner.MsgFitNoFabricOwn:            "单个实例装不下，且您的价格表未标明您的实例之间的网络：在该行填写 network_gbps 和 network_fabric（或允许未知网络）后可跨实例规划",
	planner.MsgFitOverBudget:             "超出预算",
	planner.MsgFitPastDeadline:           "赶不上截止时间",
	planner.MsgFitOwnMoreGPUs:            "%s × %s 装不下此任务；单个 %s × %s 实例可以，按 %s",
	planner.MsgFitOwnGPUs:                "%s × %s 装不下模型的一份副本：TP %[4]s 时每个 GPU 需 %[3]s GiB，可用 %[5]s GiB；单个 %[6]s × %[7]s 实例可以，按 %[8]s",
	planner.MsgFitOwnGPUsOrWeights:       "%s × %s 装不下模型的一份副本：TP %[4]s 时每个 GPU 需 %[3]s GiB，可用 %[5]s GiB；单个 %[6]s × %[7]s 实例可以，按 %[8]s，或在这些 GPU 上使用 %[9]s 权重",
	planner.MsgFitOwnWeights:             "%s × %s 装不下模型的一份副本：TP %[4]s 时每个 GPU 需 %[3]s GiB，可用 %[5]s GiB；这些 GPU 装得下 %[6]s 权重（最多 8 张此 GPU 的单个实例也装不下按当前设置的任务；跨实例规划需在该行填写 network_gbps 和 network_fabric）",
	planner.MsgHostOK:                    "主机配置符合指南的经验法则",
	planner.MsgHostUnknown:               "报价未列出 vCPU 或内存",
	planner.MsgHostFewVCPUs:              "每张 GPU %s 个 vCPU，低于主机配置指南对此任务给出的每张 GPU %s 个：数据加载进程、分词和推理服务前端都在 CPU 上运行，太少会让 GPU 空等（软性规则：预先分词，或选更大的主机规格）",
	planner.MsgHostLittleRAM:             "每张 GPU %s GiB 内存，低于主机配置指南对此任务给出的每张 GPU %s GiB：加载检查点和数据加载器的锁页缓冲区都要占用内存（软性规则：分片或内存映射加载权重，或选更大的主机规格）",
	planner.MsgHostOffloadUnlisted:       "CPU 卸载需要 %s GiB 主机内存，而该报价未列出内存",
	planner.MsgHostOffloadRAM:            "CPU 卸载需要 %s GiB 主机内存，实例只有 %s GiB",
	planner.MsgSLOTTFTPrefill:            "TTFT 受预填充限制：空闲副本上一个提示词需 %s 秒",
	planner.MsgSLOTPOTBandwidth:          "TPOT 受显存带宽限制：即使单个请求每 token 也需 %s 秒",
	planner.MsgSLOTPOTCompute:            "TPOT 受算力限制：即使单个请求每 token 也需 %s 秒",
	planner.MsgSLOTPOTHost:               "TPOT 受主机和引擎开销限制：即使单个请求每 token 也需 %s 秒",
	planner.MsgSLOTPOTCommunication:      "TPOT 受张量并行通信限制：即使单个请求每 token 也需 %s 秒",
	planner.MsgSLOKVPool:                 "KV 池连一个请求都放不下",
	planner.MsgNoneLatency:               "延迟目标无法达到（%s）",
	planner.MsgNoneLatency2:              "延迟目标无法达到（%s；%s）",
	planner.MsgNoneTTFTFloor:             "TTFT 最短 %s 秒，即 %s 的空闲副本处理一个提示词，目标为 %s 秒：请放宽目标或缩短提示词",
	planner.MsgNoneTPOTFloor:             "TPOT 最短 %s 秒，即 %s 上单个序列独自解码，目标为 %s 秒：请放宽目标、使用更轻的权重或更小的模型",
	planner.MsgSpotServing:               "竞价实例回收会破坏 SLO，除非有备用副本；已加一个",
	planner.MsgReasonCheapest:            "%s：装得下的方案中最便宜，%s；次优的 %s 成本是其 %s×，速度是其 %s×",
	planner.MsgReasonCheapestAlone:       "%s：价格无标记的方案中唯一装得下的，%s",
	planner.MsgReasonCheapestFlagged:     "%s：价格标记不比它差的方案中唯一装得下的，%s",
	planner.MsgReasonCheapestOnly:        "%s：唯一装得下的方案，%s",
	planner.MsgReasonCheapestOwnTie:      "%s：装得下的方案中最便宜，%s；%s 成本相同，同价时选用您的价格",
	planner.MsgReasonCheapestTwin:        "%s：装得下的方案中最便宜，%s；%s 成本与速度均相同",
	planner.MsgReasonCheapestTie:         "%s：装得下的方案中最便宜，%s，与最低成本相差不到 %s%%（%s，%s），速度是其 %s×",
	planner.MsgReasonCostTie:             "%s：%s 最多贵 %s%%，速度是其 %s×",
	planner.MsgReasonFastest:             "%s：速度为最便宜方案的 %s×，成本为其 %s×，%s",
	planner.MsgReasonFastestTie:          "%[1]s：速度为最便宜方案的 %[2]s×，成本为其 %[3]s×，%[4]s，与成本不超过其 %[6]s× 的方案中的最短时间（%[7]s，%[8]s）相差不到 %[5]s%%",
	planner.MsgReasonFastestCheapestTie:  "%s：最便宜的方案也是最快的，%s，与最短时间相差不到 %s%%（%s，%s），成本是其 %s×",
	planner.MsgReasonNoAlternative:       "%s：成本不超过其 %s× 的方案中没有快至少 %s%% 的，因此不显示更快的方案；最快的 %s 速度是其 %s×，成本是其 %s×",
	planner.MsgReasonPastBound:           "%s：速度为最便宜方案的 %s×，成本为其 %s×，超过了更快备选方案的成本上限（其 %s×）",
	planner.MsgReasonFastestPassed:       "%[1]s：速度是 %[3]s 的 %[2]s×，差距在估算无法区分的 %[4]s%% 以内，成本是其 %[5]s×：未选为最快",
	planner.MsgReasonValue:               "%s：成本-时间曲线的拐点，成本为最便宜方案的 %s×，速度为其 %s×",
	planner.MsgReasonPareto:              "%s：没有其他方案同时更便宜且更快",
	planner.MsgReasonFastestIsCheapest:   "%s：最便宜的方案也是最快的，%s",
	planner.MsgReasonValueIsCheapest:     "%s：最便宜的方案也是性价比最高的：成本不超过其 %s× 的更贵方案带来的速度都不值其成本",
	planner.MsgReasonValueIsFastest:      "%s：最快的方案也是性价比最高的，成本为最便宜方案的 %s×，速度为其 %s×",
	planner.MsgReasonValueIsFaster:       "%s：更快的备选方案也是性价比最高的，成本为最便宜方案的 %s×，速度为其 %s×",
	planner.MsgReasonNone:                "%s：另有方案既更便宜又更快（%s）",
	planner.MsgReasonTie:                 "%s：比不更贵的 %s 快不到 %s%%",
	planner.MsgReasonStale:               "%s：%s 的价格超出 %s 天的新鲜期，而此 GPU 有更新的可用价格：未选用（核实价格后可选用）",
	planner.MsgReasonStaleEstimated:      "%s：价格日期 %s 为估计，而此 GPU 有新鲜期内注明日期的价格：未选用（核实价格后可选用）",
	planner.MsgReasonStaleElsewhere:      "%s：%s 的价格超出 %s 天的新鲜期，而新鲜期内的价格已有可行方案：未选用（核实价格后可选用）",
	planner.MsgReasonStaleEstElsewhere:   "%s：价格日期 %s 为估计，而新鲜期内注明日期的价格已有可行方案：未选用（核实价格后可选用）",
	planner.MsgReasonStaleUndated:        "%s：价格没有日期，而此 GPU 有新鲜期内注明日期的价格：未选用（核实价格后可选用）",
	planner.MsgReasonHostShort:           "%s：主机配置低于指南对此任务的要求（%s），而有主机达标的报价可运行该任务：未选用",
	planner.MsgReasonFarBelow:            "%s：不到其他服务商对此 GPU 报价中位数的一半，而它有正常价格的报价：未选用（核实后可选用）",
	planner.MsgReasonSpotFarBelow:        "%s：其竞价价格低于自身按需价格的 %s%%，超出云厂商公布的最大折扣，且其他方案也能运行该任务：未选用（核实后可选用）",
	planner.MsgReasonFarBelowElsewhere:   "%s：不到其他服务商对此 GPU 报价中位数的一半，而按正常价格的方案也能运行该任务：未选用（核实后可选用）",
	planner.MsgReasonToVerify:            "%s：来源将此价格标为起价（“起”）或未说明其某项条件（脚注、列或地区），而此 GPU 有已确认的价格可运行该任务：未选用（核实后可选用）",
	planner.MsgReasonToVerifyElsewhere:   "%s：来源将此价格标为起价（“起”）或未说明其某项条件（脚注、列或地区），而已确认价格的方案也能运行该任务：未选用（核实后可选用）",
	planner.MsgNoteWideEPNetwork:         "专家未分布到多个实例上（大规模专家并行）：提供商未标明实例之间的 RDMA 网络（InfiniBand、RoCE、EFA）或每 GPU %s Gbit/s 的带宽，而 DeepEP 的 all-to-all 和多节点部署指南都在其上运行（DeepEP 跨节点内核需要 GPUDirect RDMA；Google 的 GPUDirect-TCPX/TCPXO 只承载 NCCL）；该副本改以流水线阶段运行",
	planner.MsgNoteNVLinkRack:            "每个副本跨同一 NVLink 域中的 %s 个计算托盘（一个机架共 %s 个托盘、%s 个 GPU，由 NVLink 相连）：托盘之间的通信走 NVLink，而不是网络",
	planner.MsgNoteRedundantExperts:      "EP %s 不能整除模型的 %s 个专家：计划增加 %s 个冗余专家副本，每个 GPU %s 个（SGLang --ep-num-redundant-experts，vLLM --enable-eplb --eplb-config num_redundant_experts，TensorRT-LLM MoE 负载均衡器的 num_slots），与 NVIDIA Dynamo 在 GB200 上的 DeepSeek-R1 配方以 EP 48 配 32 个一致",
	planner.MsgNoteRentalUnit:            "提供商只按每单 %s 个实例（%s 个 GPU）整单出租：方案使用其中 %s 个实例，所付共 %s 个，其余闲置",
	planner.MsgNoteRentalUnitCopies:      "提供商只按每单 %s 个实例（%s 个 GPU）整单出租：方案使用其中 %s 个实例，所付共 %s 个；闲置实例还可无额外费用再运行 %s 个此布局的副本（超出目标负载的余量）",
	planner.MsgNoteNetworkAssumed:        "节点间网络未知：按 %s Gbit/s 计算",
	planner.MsgNoteAccountsLocal:         "该提供商只向在其所在国家 %s 注册的法人开放账户：租用需要此类法人",
	planner.MsgNoteSpotDefaultRate:       "竞价回收率未知：按每月 %s%% 的实例计算",
	planner.MsgNoteReservedCommitment:    "预留实例按整个期限的每小时计费：%[2]s 年共 %[1]s（%[3]s），使用率高于 %[4]s%% 才比按需便宜",
	planner.MsgNoteReservedTerm:          "预留实例按整个期限的每小时计费：%[2]s 年共 %[1]s（%[3]s）",
	planner.MsgNoteVATExcluded:           "价格已扣除 %s%% 增值税",
	planner.MsgNoteNoFX:                  "%s 没有汇率：以该货币计价的 %s 个报价未纳入方案",
	planner.MsgNoteVATIncluded:           "价格含 %s%% 增值税",
	planner.MsgNoteWeightsSubstituted:    "该引擎在 %[2]s GPU 上没有 %[1]s 权重的内核：按 %[3]s 权重规划",
	planner.MsgNoteFP16ForBF16:           "%[2]s GPU 不支持 %[1]s：改用 %[3]s，显存相同",
	planner.MsgNoteQuantRefusedModel:     "vLLM 不在 %[3]s GPU 上运行 %[1]s 的 %[2]s 模型：它的相应内核只接受 fp16 或 bf16 激活，而在没有 bf16 的 GPU 上它因数值不稳定拒绝以 fp16 运行该模型；计划改用未量化检查点的 %[4]s 权重，KV 缓存为 %[5]s（SGLang 从 Turing 起以 fp16 运行量化模型；Ampere 及更新的 GPU 上 vLLM 可以运行它）",
	planner.MsgNoteFP16RefusedModel:      "vLLM 不以 fp16 运行 %[1]s 模型（数值不稳定）：在 %[2]s GPU 上使用 %[3]s 权重和 %[4]s KV 缓存",
	planner.MsgNoteRentalNoOffload:       "未使用您的 CPU 卸载（%s）规划：租用的机群可在自身 GPU 上容纳该任务，更快",
	planner.MsgNoteRentalLayoutCkpt:      "按启用激活检查点规划：租用的机群采用成本最低的显存布局（ZeRO 阶段、激活检查点），而非您自有 GPU 的设置",
	planner.MsgNoteRentalLayoutNoCkpt:    "按不启用激活检查点规划：租用的机群采用成本最低的显存布局（ZeRO 阶段、激活检查点），而非您自有 GPU 的设置",
	planner.MsgNoteStackDP:               "数据并行（TP 1 × PP 1），ZeRO-%s：由 FSDP 或 DeepSpeed 运行，下方“运行它”可生成其启动配置",
	planner.MsgNoteStackDPFT:             "数据并行（TP 1 × PP 1），ZeRO-%s：微调 Hugging Face 检查点通常在 FSDP 或 DeepSpeed 上这样运行（下方“运行它”可生成其启动配置），无需为张量并行框架转换检查点",
	planner.MsgNoteStackDPZero1:          "数据并行（TP 1 × PP 1），ZeRO-%s：由 DeepSpeed 运行，FSDP 则以 SHARD_GRAD_OP 运行（它没有仅切分优化器状态的模式，因此也切分梯度，显存更少）；下方“运行它”可生成其启动配置",
	planner.MsgNoteStackDPFTZero1:        "数据并行（TP 1 × PP 1），ZeRO-%s：微调 Hugging Face 检查点通常在 DeepSpeed 上这样运行，或在 FSDP 上以 SHARD_GRAD_OP 运行（它没有仅切分优化器状态的模式，因此也切分梯度，显存更少）；下方“运行它”可生成其启动配置，无需为张量并行框架转换检查点",
	planner.MsgNoteStackLitGPT:           "LitGPT 的布局：%s 个 GPU，ZeRO-%s，即其微调脚本的运行方式（单张 GPU 按原样；多张则为 FSDP 完全分片、每个 Block 重算激活、不卸载）：下方“运行它”可生成其启动配置",
	planner.MsgNoteStackMegatron:         "TP %s × PP %s，ZeRO-%s：此切分由 Megatron-LM 或 NeMo 运行（其分布式优化器即 ZeRO-1）；“运行它”只生成数据并行的启动配置",
	planner.MsgNoteStackMegatronFT:       "TP %s × PP %s，ZeRO-%s，因为这些 GPU 放不下任何数据并行布局：此切分在转换检查点后由 Megatron-LM 或 NeMo 运行（其分布式优化器即 ZeRO-1）；“运行它”只生成数据并行的启动配置",
	planner.MsgNoteStackTorchtitan:       "TP %s × PP %s，ZeRO-%s：此切分由 torchtitan 运行（FSDP2，配合 --parallelism.tensor_parallel_degree 与 pipeline_parallel_degree）；“运行它”只生成数据并行的启动配置",
	planner.MsgNoteStackNone:             "TP %s × PP %s，ZeRO-%s：没有训练框架能运行此切分：Megatron-LM 只切分优化器状态（ZeRO-1），torchtitan 只预训练 Llama 3、Qwen3 和 DeepSeek-V3，QLoRA 的基座只能按数据并行切分；请把“ZeRO 阶段”设为 1 或把“张量并行”设为 1",
	planner.MsgNoteScaleOut:              "已从 %s 台扩展到 %s 台实例：速度是能容纳任务的最少实例的 %s×，成本为 %s×（每次翻倍须带来 1.5× 的加速，即 CSC 的扩展准则）",
	planner.MsgNoteScaleOutDeadline:      "已从 %s 台扩展到 %s 台实例：速度是能按期完成的最少实例的 %s×，成本为 %s×（每次翻倍须带来 1.5× 的加速，即 CSC 的扩展准则）",
	planner.MsgNoteScaleStopSlow:         "扩展到此为止：翻倍到 %s 台实例只能把任务加速 %s×，成本却为 %s×，低于每次翻倍须达到的 1.5×",
	planner.MsgNoteScaleStopComm:         "扩展到此为止：翻倍到 %s 台实例只能把任务加速 %s×，成本却为 %s×，低于每次翻倍须达到的 1.5×：计算无法掩盖的通信在每步中占比越来越大",
	planner.MsgNoteBatchWider:            "在此布局下，%s 条序列的全局批量最多容纳 %s 个数据并行副本（每个副本每步至少一个微批量，默认批量下不少于其流水线阶段数），因此该集群改用更少但更宽的副本：%s 个副本、每个副本 %s 块 GPU（TP %s × PP %s × CP %s），正如已发表的训练在超出批量限制后的扩展方式（Llama 3 405B：TP 8 × CP × PP 16，Llama 3 论文 §3.3.2）；时间计入了每种切分的开销：TP 的 all-reduce、PP 的流水线气泡、CP 的键值环形传递",
	planner.MsgNoteScaleStopBatch:        "扩展到此为止：更多数据并行副本每步处理的词元将超过任务的全局批量 %s（由“全局批量”设定）",
	planner.MsgNoteScaleStopBatchFT:      "扩展到此为止：更多数据并行副本每步处理的序列将超过 %s 条（%s 个词元），即微调常用的全局批量（Stanford Alpaca、alpaca-lora）；更大的批量已是另一种训练配方（由“全局批量”设定）",
	planner.MsgNoteFTBatchLarge:          "每步 %s 条序列，超过微调常用的全局批量 128（Stanford Alpaca、alpaca-lora）：其 %s 个数据并行副本各处理一个微批次，因此训练配方（批量及为其调好的学习率）与常用配方不同（更少的实例可保持常用批量，但耗时更长）",
	planner.MsgNoteScaleStopLimit:        "扩展到此为止：再翻倍将超过规划器的实例上限 %s",
	planner.MsgNoteScaleStopLayout:       "扩展到此为止：在 %s 台实例上没有任何布局能在训练框架上运行",
	planner.MsgNoteMemShare:              "SGLang 默认的 --mem-fraction-static 在注意力 DP %s 时不留 KV 缓存空间；计划设为 %s，与 SGLang 的 DeepSeek-R1 多节点配方（InferenceX，H100）一致",
	planner.MsgNoteNoSpare:               "单个副本以 %s%% 负载承担全部流量：故障时没有备用（可再加一个实现 N+1）",
	planner.MsgNotePastLimitCheaper:      "超出规划器 %[1]s 个实例的上限时更便宜：%[2]s 约 %[3]s 即可承载该请求速率，为最便宜方案费用的 %[4]s 倍，需 %[5]s 个实例，超过页面规划的上限",
	planner.MsgNotePastLimitOnly:         "超出规划器 %[1]s 个实例的上限：%[2]s 约 %[3]s 即可承载该请求速率，需 %[4]s 个实例，超过页面规划的上限",
	planner.MsgNoteTTFTBinds:             "副本数由 TTFT 目标决定：单个提示词独自运行时首个 token 需 %s 秒，达到目标的 %s%%（目标 %s 秒），因此每个副本负载仅 %s%%；放宽目标后每个副本可承担更多",
	planner.MsgNoteTTFTDefaultRelax:      "TTFT 目标为默认值：%s 秒，对应 %s token 的提示词（2 秒，提示词较长时按每 1,000 token 0.2 秒，依据 MLPerf Inference 服务器场景上限），它决定了最便宜方案的副本数：%s，%s；若 TTFT 为 %s 秒（其上单个提示词 prefill 的 %s 倍），最便宜的是 %s，%s。请设置您的用户可接受的 TTFT",
	planner.MsgNoteTPOTBinds:             "副本数由 TPOT 目标决定：单个序列独自解码每个 token 需 %s 秒，达到目标的 %s%%（目标 %s 秒），因此每个副本负载仅 %s%%；放宽目标后每个副本可承担更多",
	planner.MsgNoteServingEngine:         "推理服务按连续批处理（vLLM）计算",
	planner.MsgNotePastCardContext:       "%s 个 token 的请求超出了模型卡给出的 %s token 上下文：推理引擎仍会处理（配置声明了 %s 个位置，即 vLLM 默认的 --max-model-len），但模型卡并未承诺超出该上下文的质量；请将请求控制在其范围内，或在此长度上测试模型",
	planner.MsgNoteBF16StatesZero:        "bf16 优化器状态由分布式优化器保存：计划只搜索 ZeRO 1 到 3（指定的 ZeRO 阶段保持不变）",
	planner.MsgNoteBatchEngine:           "批量推理按 vLLM（连续批处理，离线 LLM.generate）规划，即启动配置所运行的引擎",
	planner.MsgNoteBatchEngineEncoder:    "该模型不生成 token（编码器或固定输入长度的模型）：批量任务按 HF transformers 规划",
	planner.MsgNoteBatchHFGPU:            "按 HF transformers 规划：vLLM 不支持 %s GPU",
	planner.MsgNoteBatchHFQuantModel:     "按 HF transformers 规划：vLLM 不在 %[3]s GPU 上运行 %[1]s 的 %[2]s 模型（其内核只接受 fp16 或 bf16 激活，而它拒绝以 fp16 运行该模型）",
	planner.MsgNoteBatchHFWeights:        "按 HF transformers 规划：vLLM 在 %[2]s GPU 上没有 %[1]s 内核",
	planner.MsgNoteOwnNoRegion:           "您的价格表未填写地区：已保留此行，未按地区筛选",
	planner.MsgNoteOwnNoVCPUs:            "您的价格表未填写 vCPU 数：已保留此行，未检查 vCPU 下限",
	planner.MsgNoteOwnNoRAM:              "您的价格表未填写内存：已保留此行，未检查内存下限",
	planner.MsgNoteOwnNoCountry:          "您的服务商所在国家未知：已保留此行，未按国家筛选",
	planner.MsgHostedCheaperThanAPI:      "请求率高于 %[3]s 次/秒时，在 %[1]s 上自建比 %[2]s 更便宜",
	planner.MsgHostedCheaperThanAPIAbove: "在 %[1]s 上自建从 %[3]s 次/秒起比 %[2]s 更便宜（单个副本可承载至 %[4]s 次/秒），请求率高于 %[5]s 次/秒时始终更便宜；两者之间，需要多加一个副本的请求率可能比 API 的 token 费用更贵",
	planner.MsgHostedNever:               "在单个副本能承受的任何请求率下，%s 都比自建更便宜",
	planner.MsgDisaggSidesWin:            "划算：在 %s 上，prefill 工作节点每个 TP %s × %s 个（%s），decode 工作节点每个 TP %s × %s 个（%s），%s，在目标下比合并部署便宜 %s%%（估算）%s",
	planner.MsgDisaggRackSpan:            "；其工作节点跨同一 NVLink 域中的计算托盘（每个 prefill 工作节点 %s 个，每个 decode 工作节点 %s 个；一个机架共 %s 个托盘、%s 个 GPU，由 NVLink 相连）：工作节点托盘之间的通信走 NVLink，而不是网络",
	planner.MsgDisaggSidesLose:           "不划算：最便宜的方案在 %s 上，prefill 工作节点每个 TP %s × %s 个（%s），decode 工作节点每个 TP %s × %s 个（%s），费用 %s，是合并部署的 %s×%s",
	planner.MsgDisaggPastLimit:           "规划器上限内没有方案：最便宜的方案需要 %s 个实例，超过页面规划的 %s 个，在 %s 上，prefill 工作节点每个 TP %s × %s 个（%s），decode 工作节点每个 TP %s × %s 个（%s），费用 %s，是合并部署的 %s×%s",
	planner.MsgDisaggBoundTTFT:           "数量由 TTFT 目标决定",
	planner.MsgDisaggBoundTPOT:           "数量由 TPOT 目标决定",
	planner.MsgDisaggBoundRate:           "数量由负载上限下的请求速率决定",
	planner.MsgDisaggBoundRateKV:         "数量由负载上限下的请求速率决定，每个同时最多解码 %s 个请求，即其 KV 缓存所能容纳的数量",
	planner.MsgDisaggBoundRateSeqs:       "数量由负载上限下的请求速率决定，每个同时最多解码 %s 个请求，即引擎的运行序列数上限（%s）",
	planner.MsgDisaggBoundOne:            "一个即可",
	planner.MsgDisaggBoundSpare:          "%s；其中 %s 个为应对 spot 回收的备用",
	planner.MsgHostedNoFit:               "没有能运行该任务的自建方案可与 %s 比较",
	planner.MsgHostedBatchAPI:            "托管 API %[1]s 按每 1M 输入/输出 token %[2]s/%[3]s USD 计价（标价日期 %[4]s），完成该批任务需 %[5]s，低于最便宜的自建方案 %[6]s（%[7]s）",
	planner.MsgHostedBatchSelf:           "托管 API %[1]s 是该模型最便宜的，按每 1M 输入/输出 token %[2]s/%[3]s USD 计价（标价日期 %[4]s），完成该批任务需 %[5]s，高于最便宜的自建方案 %[6]s（%[7]s）",
	planner.MsgHostedDayRentCheaper:      "按全天负载曲线计算，最便宜的租用集群（%s）比 %s 更便宜",
	planner.MsgHostedDayAPICheaper:       "按全天负载曲线计算，%s 比最便宜的租用集群（%s）更便宜",
}

// Reason renders a planner sentence in the page's language, naming
// providers by their IDs (ReasonWith names them).
func (l Locale) Reason(r planner.Reason) string { return l.ReasonWith(r, nil) }

// ReasonWith renders a planner sentence in the page's language. Typed
// arguments are formatted as the same figures are on the cards: money
// with l.money, times with l.duration, plans with the provider's name
// (names maps an ID to it; nil keeps the ID). Strings are names and are
// shown as the planner wrote them: a locale never reaches inside a name
// ("verda 8B300.240V" keeps its point in Russian). The planner's one
// renderer (planner.Reason.Format) writes the sentence; the command line
// passes it English's formatter (planner.Reason.String).
func (l Locale) ReasonWith(r planner.Reason, names func(string) string) string {
	return r.Format(reasonFormatter{l, names})
}

// reasonFormatter is a planner.Formatter in l's language.
type reasonFormatter struct {
	l     Locale
	names func(string) string
}

func (f reasonFormatter) Text(m planner.Msg) string { return PlanText(f.l.Lang, m) }
func (f reasonFormatter) Number(v float64) string   { return f.l.Sig3(v) }
func (f reasonFormatter) Count(n int) string        { return f.l.Count(int64(n)) }

func (f reasonFormatter) Money(v planner.Money) string {
	s := f.l.Money(v.Amount, v.Currency)
	if v.PerMonth {
		s += f.l.T(MsgPerMonthUnit)
	}
	return s
}

func (f reasonFormatter) Duration(v planner.Duration) string {
	if v.P95PerRequest {
		return fmt.Sprintf(f.l.T(MsgPerRequestP95), f.l.Duration(v.Seconds))
	}
	return f.l.Duration(v.Seconds)
}

func (f reasonFormatter) Offer(v planner.OfferRef) string {
	if f.names != nil {
		v.Provider = f.names(v.Provider)
	}
	// The count as the plan's card writes it (InstancesOf).
	s := v.Provider + " " + v.InstanceType + InstancesOf(f.l, v.Instances, v.Rented)
	if v.Own {
		s += f.l.Aside(s, f.l.T(MsgOwnPriceMark))
	}
	return s
}

// Sig3 writes v with three significant digits, in the locale: 123.4 is
// "123", 12.34 "12.3", 1.234 "1.23", 0.01234 "0.0123". A number of four
// digits or more keeps its whole part (1234 is "1,234", not "1,230"): the
// rounding would read as a different count.
func (l Locale) Sig3(v float64) string {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return "—"
	case math.Abs(v) >= 99.95: // 99.96 rounds to "100", not "100.0"
		return l.Fixed(v, 0)
	case math.Abs(v) >= 9.995: // 9.996 rounds to "10.0", not "10.00"
		return l.Fixed(v, 1)
	case math.Abs(v) >= 0.9995: // 0.9996 rounds to "1.00", not "1"
		return l.Fixed(v, 2)
	}
	return l.decimals(strconv.FormatFloat(v, 'g', 3, 64))
}

// Given writes a figure the user typed, as the job line repeats it: a
// whole number as a whole ("100 requests/s", "2 epochs", never "100.0"
// or "2.00"), else to three significant digits (Sig3).
func (l Locale) Given(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return l.Fixed(v, 0)
	}
	return l.Sig3(v)
}

// decimals swaps the decimal point of numbers inside s for the locale's.
func (l Locale) decimals(s string) string {
	if !l.ru() {
		return s
	}
	b := []byte(s)
	for i := 1; i+1 < len(b); i++ {
		if b[i] == '.' && b[i-1] >= '0' && b[i-1] <= '9' && b[i+1] >= '0' && b[i+1] <= '9' {
			b[i] = ','
		}
	}
	return string(b)
}

// SLOStatLabel names the statistic the latency targets bound
// (planner.SLOStat) in l's language: "mean", "p50 (median)", or the
// percentile as benchmark reports write it ("p95").
func SLOStatLabel(l Locale, s planner.SLOStat) string {
	switch s {
	case planner.SLOMean:
		return l.T(MsgSLOMean)
	case planner.SLOP50:
		return l.T(MsgSLOMedian)
	}
	return s.String()
}

// NoneCause is why nothing fits where one reason refuses every offer the
// filters leave (each row's planner.Row.FitReason): "vllm does not run on
// Pascal GPUs" for every P100 offer says more than "nothing fits". Where
// the reason is an engine that does not start on the offers' GPU
// generation (fit.engine_gpu), it names the other engines that start
// there (estimator.SupportForJob) and plan the job on the same offers:
// at a request rate only the engines with continuous batching (the
// planner plans HF transformers and llama.cpp serving a rate as vLLM),
// otherwise every engine.
type NoneCause struct {
	Why planner.Reason
	// Refused is the engine of an engine refusal, Gen the generation it
	// does not start on; Refused is -1 for any other reason.
	Refused estimator.Engine
	Gen     estimator.Generation
	// Alike are the other engines the planner would plan the job on as
	// themselves, Starts those of them that start on Gen, and Runs those
	// of Starts whose plan of the job on the same offers fits
	// (NoneCauseOf).
	Alike, Starts, Runs []estimator.Engine
	// Latency marks a serving plan whose offers that hold the model all
	// miss a latency target (planner.LatencyFloor): Why says the best
	// figure reached against the target, and no engine is the cause.
	Latency bool
	// Layout marks a layout the user fixed that one GPU does not hold
	// (fit.layout_oom), or that LitGPT's scripts do not run for a job
	// planned for them (fit.litgpt_layout, fit.litgpt_qlora): Why says
	// what to change.
	Layout bool
	// Mixed is, where the offers are refused for different reasons, each
	// reason and how many offers it refused, the most common first
	// (planner.CountReasons); Why is then empty.
	Mixed []planner.ReasonCount
}

// FindNoneCause is the cause of an empty plan of req whose rows (its
// refusals, planner.Result.Unfit, or its rows kept unfit,
// planner.Options.KeepUnfit) are rows, with the engines that start
// where the engine is the cause but not yet those that fit (Runs: see
// NoneCauseOf); ok is false where a row fits, where there is none, or
// where two rows are refused for different reasons, unless some row
// misses a latency target: then the cause is the best figure an offer
// reaches against each target it misses (planner.LatencyFloor), as the
// offers that miss none are refused for memory or an engine. A layout the
// user fixed that one GPU does not hold, or that LitGPT does not run, is
// the cause wherever a row says so: the layout sets each GPU's share, so it holds on every offer of the
// GPU, and rows refused first for their price, their shape or their
// network would be refused for it next (70B QLoRA on one A100 80GB
// without checkpointing said only "nothing fits", as three of 134 offers
// had no on-demand price).
func FindNoneCause(req planner.Request, rows []planner.Row) (c NoneCause, ok bool) {
	if len(rows) == 0 || rows[0].FitReason.Key == planner.NoMsg {
		return NoneCause{}, false
	}
	if why, ok := planner.LatencyFloor(req.Workload, rows); ok {
		return NoneCause{Why: why, Refused: -1, Latency: true}, true
	}
	for _, r := range rows {
		if k := r.FitReason.Key; !r.Fits && (k == planner.MsgFitLayoutOOM || req.FixedParallelism && (k == planner.MsgFitLitGPTQLoRA || k == planner.MsgFitLitGPTLayout)) {
			return NoneCause{Why: r.FitReason, Refused: -1, Layout: true}, true
		}
	}
	c = NoneCause{Why: rows[0].FitReason, Refused: -1}
	want := c.Why.String()
	for _, r := range rows {
		if r.Fits || r.FitReason.Key != c.Why.Key || r.FitReason.String() != want {
			return NoneCause{}, false
		}
	}
	if k := c.Why.Key; k != planner.MsgFitEngineGPU && k != planner.MsgFitEngineRelease || rows[0].Offer == nil {
		return c, true
	}
	c.Refused, c.Gen = rows[0].Engine, rows[0].Offer.Hardware.Generation
	in := req.Input
	for _, e := range estimator.Engines {
		if e == c.Refused || req.Workload.Kind == planner.Serving && !e.Pooled() {
			continue
		}
		// Another engine at its current release: the job's release, if
		// it names one, is its own engine's.
		in.Engine, in.EngineVersion = e, estimator.EngineVersion{}
		c.Alike = append(c.Alike, e)
		if estimator.SupportForJob(c.Gen, in).Runs {
			c.Starts = append(c.Starts, e)
		}
	}
	return c, true
}

// NoneCauseOf is the cause of res, req's plan on offers, where nothing
// fits (FindNoneCause of the refusals the plan keeps, planner.Result.Unfit):
// the answer to an empty plan. Where an engine is the cause, each engine
// that starts on the offers' GPUs is planned on them, and Runs keeps
// those whose plan fits: a way out that runs, not one that stops at the
// next reason (a V100 of 16 GB that vLLM starts on but that does not
// hold the model).
func NoneCauseOf(req planner.Request, res planner.Result, offers []planner.Offer, opts planner.Options) (NoneCause, bool) {
	if res.Cheapest >= 0 {
		return NoneCause{}, false
	}
	c, ok := FindNoneCause(req, res.Unfit)
	if !ok {
		// Different reasons: the most common, with their counts.
		if m := planner.CountReasons(res.Unfit); len(m) > 1 {
			return NoneCause{Refused: -1, Mixed: m}, true
		}
		return c, false
	}
	opts.KeepUnfit, opts.Top = false, 0
	for _, e := range c.Starts {
		r := req
		r.Input.Engine, r.Input.EngineVersion, r.EngineOpen = e, estimator.EngineVersion{}, false
		if res, err := planner.Plan(r, offers, opts); err == nil && res.Cheapest >= 0 {
			c.Runs = append(c.Runs, e)
		}
	}
	return c, ok
}

// Clause is the cause in l's words, engines named by name (the page
// their labels, the command line the --engine value): "vllm does not run
// on Pascal GPUs, nor does any other engine the plan serves a request
// rate on (sglang, trtllm)". An engine refusal where other engines start
// but none fits the job is said alone: the next reason is theirs.
func (c NoneCause) Clause(l Locale, name func(estimator.Engine) string) string {
	return c.clause(l, name, nil)
}

// clause is Clause with the offers a latency cause names written by
// names (a provider's ID to its name; nil keeps the ID).
func (c NoneCause) clause(l Locale, name func(estimator.Engine) string, names func(string) string) string {
	if len(c.Mixed) > 0 {
		return c.MixedLine(l, func(r planner.Reason) string { return l.ReasonWith(r, names) })
	}
	why := l.ReasonWith(c.Why, names)
	switch {
	case c.Latency, c.Layout:
		return why
	case c.Refused < 0:
		return Fill(l.T(MsgNoneSameReason), why)
	case len(c.Runs) > 0:
		return Fill(l.T(MsgNoneEngineRuns), why, engineList(c.Runs, name))
	case len(c.Starts) == 0 && len(c.Alike) > 0:
		return Fill(l.T(MsgNoneEngineAlike), why, engineList(c.Alike, name))
	}
	return why
}

// Note is the page's answer to an empty plan with cause c: the clause,
// and where other engines run the job, the field that chooses one.
func (c NoneCause) Note(l Locale) string { return c.NoteWith(l, nil) }

// NoteWith is Note with the offers the cause names written by names (a
// provider's ID to its name, as the cards write it; nil keeps the ID).
func (c NoneCause) NoteWith(l Locale, names func(string) string) string {
	clause := c.clause(l, estimator.Engine.Label, names)
	if c.Refused >= 0 && len(c.Runs) > 0 {
		return Fill(l.T(MsgNoneCauseEngine), clause, l.T(MsgEngine))
	}
	return Fill(l.T(MsgNoneCause), clause)
}

// mixedShown is how many of an empty plan's reasons its answer names,
// the most common (NoneCause.Mixed); the offers refused for the others
// are counted together, so the answer stays one line.
const mixedShown = 3

// MixedLine is a cause of different reasons (NoneCause.Mixed) in l's
// words, each reason written by reason: "the offers are refused for
// different reasons, the most common first: 6 × one instance does not
// hold it …; 3 × needs more than 64 instances; 1 × no on-demand price",
// the items apart by the language's separator (MsgNoneMixedSep).
// The command line writes the planner's own sentences (its flags), the
// page its fields'.
func (c NoneCause) MixedLine(l Locale, reason func(planner.Reason) string) string {
	items := make([]string, 0, mixedShown+1)
	rest := 0
	for i, m := range c.Mixed {
		if i >= mixedShown {
			rest += m.Offers
			continue
		}
		items = append(items, l.Given(float64(m.Offers))+" × "+reason(m.Why))
	}
	if rest > 0 {
		items = append(items, Fill(l.T(MsgNoneMixedRest), l.Given(float64(rest))))
	}
	return Fill(l.T(MsgNoneMixed), strings.Join(items, l.T(MsgNoneMixedSep)))
}

func engineList(es []estimator.Engine, name func(estimator.Engine) string) string {
	names := make([]string, len(es))
	for i, e := range es {
		names[i] = name(e)
	}
	return strings.Join(names, ", ")
}
