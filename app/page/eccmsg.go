package page

import (
	"rightsize/estimator"
)

// Where the fit is decided on a GDDR GPU with ECC on, the page says the
// usable memory comes from what CUDA sees, not the card's marketed size
// (catalog.GPU.ECCMemory, estimator.Input.ECCVisible): an A10G sold as
// 24 GB fits a job in 0.99 × 23,028 MiB = 22.26 GiB, and a verdict
// against that figure would otherwise read as a slip.
func init() {
	messagesEN[MsgUsableECC] = "usable %s (ECC)"
	MessagesRU[MsgUsableECC] = "доступно %s (ECC)"
	messagesZH[MsgUsableECC] = "可用 %s（ECC）"
	messagesEN[MsgECCSees] = "ECC on: CUDA sees %s of %s"
	MessagesRU[MsgECCSees] = "ECC включён: CUDA видит %s из %s"
	messagesZH[MsgECCSees] = "ECC 开启：CUDA 可见 %s（共 %s）"
}

// UsableECC is " · usable 22.26 GiB (ECC)" for a verdict on a GPU whose
// usable memory ECC sets (visible: estimator.Input.ECCVisible, or
// catalog.GPU.ECCVisible), "" where visible is 0; usable is the figure the
// fit was decided on (estimator.Result.Usable).
func UsableECC(l Locale, visible, usable estimator.Bytes) string {
	if visible <= 0 {
		return ""
	}
	return " · " + Fill(l.T(MsgUsableECC), l.Bytes(usable))
}

// ECCSees is "ECC on: CUDA sees 22.49 GiB of 24.00 GiB" beside the usable
// memory where ECC sets it (in.ECCVisible), "" otherwise.
func ECCSees(l Locale, in estimator.Input) string {
	v := in.ECCVisible()
	if v <= 0 {
		return ""
	}
	return Fill(l.T(MsgECCSees), l.Bytes(v), l.Bytes(in.VRAM))
}
