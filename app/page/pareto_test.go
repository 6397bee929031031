package page

import "testing"

func TestFrontLine(t *testing.T) {
	pts := []Point{{X: 16, Y: 12, Front: true, Picked: true}, {X: 40, Y: 30}, {X: 888, Y: 268, Front: true}}
	if got := FrontLine(pts); got != "16,12 888,268" {
		t.Errorf("front %q", got)
	}
	if got := FrontLine(pts[1:2]); got != "" {
		t.Errorf("no front: %q", got)
	}
	for i, want := range []string{"rs-pt rs-pt-front rs-pt-picked", "rs-pt", "rs-pt rs-pt-front"} {
		if got := pts[i].Class(); got != want {
			t.Errorf("point %d: class %q, want %q", i, got, want)
		}
	}
}
