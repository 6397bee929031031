package page

// ChartCursor is the cost-vs-time chart's pointer and keyboard state:
// Shown is the point shown (index+1; 0: none). A phone has no hover, so
// a tap on a point not yet shown shows it and a tap on the point shown
// uses it; a mouse click uses a point at once. A touch's focus (and the
// mouse events a browser sends after it) shows the point before the
// click arrives, so a press notes the point shown before it (Down).
type ChartCursor struct {
	Shown int
	tap   bool
	from  int
}

// Down is a press: a touch or not.
func (c *ChartCursor) Down(touch bool) { c.tap, c.from = touch, c.Shown }

// Pick is a click or tap on point i: it shows the point and reports
// whether to use its plan.
func (c *ChartCursor) Pick(i int) (use bool) {
	use = !c.tap || c.from == i+1
	c.Shown = i + 1
	return use
}

// Tab is Tab (shift: Shift+Tab) on point i. Tab walks the points in order
// with the "+ Compare" of each between it and the next (the button sits
// under the chart, after every point): Tab on point i shows it, Shift+Tab
// shows point i-1, and the focus moves to the shown point's button; false
// (Shift+Tab on the first point) leaves the chart.
func (c *ChartCursor) Tab(i int, shift bool) bool {
	if shift {
		i--
	}
	if i < 0 {
		return false
	}
	c.Shown = i + 1
	return true
}

// CompareTab is Tab (shift: Shift+Tab) on the shown point's "+ Compare",
// of n points: the point to focus, the next one or the shown one itself;
// false (Tab on the last point's button, or none shown) leaves the chart.
func (c *ChartCursor) CompareTab(n int, shift bool) (int, bool) {
	i := c.Shown
	if shift {
		i--
	}
	return i, c.Shown > 0 && i < n
}
