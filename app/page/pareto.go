package page

import "strconv"

// FrontLine is the cost-vs-time chart's front as an SVG polyline's
// points ("x,y x,y"), cheapest to fastest: the points on the front, in
// order; "" when none is.
func FrontLine(points []Point) string {
	var front string
	for _, pt := range points {
		if pt.Front {
			if front != "" {
				front += " "
			}
			front += strconv.Itoa(pt.X) + "," + strconv.Itoa(pt.Y)
		}
	}
	return front
}

// Class is a chart point's class: on the front, picked, both or neither.
func (p Point) Class() string {
	cls := "rs-pt"
	if p.Front {
		cls += " rs-pt-front"
	}
	if p.Picked {
		cls += " rs-pt-picked"
	}
	return cls
}
