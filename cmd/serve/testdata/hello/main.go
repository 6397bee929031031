// Command hello is a go-app "hello world" built and served exactly like
// Rightsize (same flags, same generator, same server), so make bench can
// report Rightsize's time to interactive as a ratio to go-app's own floor.
// cmd/build -hello generates its static page; the component below must
// render what cmd/build's helloPage prerenders.
package main

import "github.com/maxence-charriere/go-app/v10/pkg/app"

type hello struct {
	app.Compo
	live bool
}

func (h *hello) OnMount(ctx app.Context) {
	app.Window().Get("performance").Call("mark", "hello:mounted")
	h.live = true
}

func (h *hello) Render() app.UI {
	cls := "rs-page"
	if h.live {
		cls += " rs-live rs-complete"
	}
	return app.Main().Class(cls).Body(app.H1().Text("Hello"))
}

func main() {
	if app.IsClient {
		app.Window().Get("performance").Call("mark", "hello:main")
	}
	app.Route("/", func() app.Composer { return &hello{} })
	app.RunWhenOnBrowser()
}
