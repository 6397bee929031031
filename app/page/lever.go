package page

import "rightsize/estimator"

// Lever says, for a speed figure bound by b, the one input that would
// change it most (issue: "context on every result"): the efficiency the
// bound rests on, with the value assumed, or the host or the network. It
// is the sentence the basis box shows next to "Bound by".
func Lever(l Locale, b estimator.Bound, task estimator.Task, eff estimator.Efficiency) string {
	pct := func(v float64) string { return l.Fixed(v*100, 0) + "%" }
	switch b {
	case estimator.BoundCompute:
		if task == estimator.Inference {
			return Fill(l.T(MsgLeverInfMFU), pct(eff.InferenceMFU))
		}
		return Fill(l.T(MsgLeverMFU), pct(eff.MFU))
	case estimator.BoundBandwidth:
		return Fill(l.T(MsgLeverBW), pct(eff.BandwidthUtil))
	case estimator.BoundHost:
		return l.T(MsgLeverHost)
	case estimator.BoundCommunication:
		return l.T(MsgLeverComm)
	}
	return ""
}
