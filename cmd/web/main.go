// Command web is Rightsize's browser entry point, compiled to app.wasm. It
// only registers routes and starts go-app: keep net/http, the site generator
// and goccy/go-json out of this binary (each adds megabytes).
package main

import (
	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"

	"rightsize/app"
)

func main() {
	app.Mark("rightsize:main") // Go runtime and package initialisation done
	app.Routes()
	goapp.RunWhenOnBrowser()
}
