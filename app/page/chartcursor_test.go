package page

import "testing"

// TestChartCursor: a mouse click uses a point at once; on a phone the
// first tap shows a point and a second tap on it uses it, even when the
// touch's focus showed it before the click arrived; Tab and Shift+Tab
// walk the points through their "+ Compare" buttons and leave the chart
// at either end.
func TestChartCursor(t *testing.T) {
	var c ChartCursor
	c.Down(false)
	if !c.Pick(2) || c.Shown != 3 {
		t.Errorf("click on point 2: use false or shown %d", c.Shown)
	}
	c = ChartCursor{}
	c.Down(true)
	if c.Pick(1) || c.Shown != 2 {
		t.Errorf("first tap on point 1: used, or shown %d", c.Shown)
	}
	c.Down(true)
	if !c.Pick(1) {
		t.Error("second tap on point 1 did not use it")
	}
	c.Down(true)
	if c.Pick(4) || c.Shown != 5 {
		t.Errorf("tap on another point: used, or shown %d", c.Shown)
	}
	// The touch's focus showed point 0 before the click: still a first tap.
	c = ChartCursor{}
	c.Down(true)
	c.Shown = 1
	if c.Pick(0) {
		t.Error("a tap whose focus showed the point first used it")
	}
	c = ChartCursor{}
	if !c.Tab(0, false) || c.Shown != 1 {
		t.Errorf("Tab on point 0: shown %d", c.Shown)
	}
	if c.Tab(0, true) {
		t.Error("Shift+Tab on the first point stays in the chart")
	}
	if i, ok := c.CompareTab(3, false); !ok || i != 1 {
		t.Errorf("Tab on point 0's button: next %d %v, want 1", i, ok)
	}
	if i, ok := c.CompareTab(3, true); !ok || i != 0 {
		t.Errorf("Shift+Tab on point 0's button: %d %v, want 0", i, ok)
	}
	c.Shown = 3
	if _, ok := c.CompareTab(3, false); ok {
		t.Error("Tab on the last point's button stays in the chart")
	}
	if _, ok := (&ChartCursor{}).CompareTab(3, false); ok {
		t.Error("a button with no point shown moves the focus")
	}
}
