package main

import (
	"bytes"
	"cmp"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/net/html"
)

// canonicalHTML rewrites a prerendered page with every element's attributes
// sorted by name. go-app keeps attributes in a map, so two renders of one
// page can list them in different orders; sorting makes dist/ reproducible.
// It also drops the Open Graph url/image tags go-app writes as a bare
// "https://" when the site has no domain: the site is built to be hosted
// anywhere, and a link preview should not point at nothing.
func canonicalHTML(page []byte) ([]byte, error) {
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		return nil, err
	}
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			slices.SortStableFunc(n.Attr, func(a, b html.Attribute) int {
				return cmp.Or(strings.Compare(a.Namespace, b.Namespace), strings.Compare(a.Key, b.Key))
			})
		}
		for c := n.FirstChild; c != nil; {
			next := c.NextSibling
			if hostlessOpenGraph(c) {
				n.RemoveChild(c)
			} else {
				walk(c)
			}
			c = next
		}
	}
	walk(doc)
	hoistPolicy(doc)
	var out bytes.Buffer
	if err := html.Render(&out, doc); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// hoistPolicy moves the Content-Security-Policy meta tag to the top of
// <head>: a policy in a meta tag covers only what the parser meets after
// it, and go-app writes extra head tags after its scripts.
func hoistPolicy(doc *html.Node) {
	var head, policy *html.Node
	var find func(*html.Node)
	find = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch {
			case n.Data == "head" && head == nil:
				head = n
			case n.Data == "meta" && policy == nil:
				for _, a := range n.Attr {
					if a.Key == "http-equiv" && strings.EqualFold(a.Val, "Content-Security-Policy") {
						policy = n
					}
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			find(c)
		}
	}
	find(doc)
	if head == nil || policy == nil {
		return
	}
	policy.Parent.RemoveChild(policy)
	head.InsertBefore(policy, head.FirstChild)
}

// canonicalizePages applies canonicalHTML to every .html file under dir.
func canonicalizePages(dir string) error {
	pages, err := filepath.Glob(filepath.Join(dir, "*.html"))
	if err != nil {
		return err
	}
	for _, p := range pages {
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out, err := canonicalHTML(data)
		if err != nil {
			return err
		}
		if err := os.WriteFile(p, out, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// hostlessOpenGraph reports a <meta property="og:url|og:image"> whose
// content is a URL without a host.
func hostlessOpenGraph(n *html.Node) bool {
	if n.Type != html.ElementNode || n.Data != "meta" {
		return false
	}
	var prop, content string
	for _, a := range n.Attr {
		switch a.Key {
		case "property":
			prop = a.Val
		case "content":
			content = a.Val
		}
	}
	if prop != "og:url" && prop != "og:image" {
		return false
	}
	rest, ok := strings.CutPrefix(content, "https://")
	if !ok {
		rest, ok = strings.CutPrefix(content, "http://")
	}
	return ok && (rest == "" || strings.HasPrefix(rest, "/"))
}
