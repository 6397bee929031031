package source

import (
	"bufio"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"rightsize/catalog"
)

// FX sources: the official reference rates of the Bank of Russia (daily
// XML), the European Central Bank (daily XML) and the People's Bank of
// China's central parity as CFETS publishes it (JSON). Each gives units of
// currency per 1 USD, the date the rates are for, and the source line.

// FXSource is one official reference-rate publication.
type FXSource struct {
	Name, URL, Doc string
	Parse          func(data []byte) (perUSD map[string]float64, asOf string, err error)
}

// FXSources lists the FX adapters; "catalog refresh --fx NAME" picks one,
// so every converted price shares one basis.
var FXSources = []FXSource{
	{Name: "cbr", URL: cbrURL, Parse: ParseCBR,
		Doc: "Bank of Russia official rates, daily XML (windows-1251): RUB per unit; other currencies as cross rates via USD/RUB"},
	{Name: "ecb", URL: ecbURL, Parse: ParseECB,
		Doc: "ECB euro foreign exchange reference rates, daily XML: per EUR; per USD as cross rates (no RUB since 2022)"},
	{Name: "pboc", URL: pbocURL, Parse: ParsePBoC,
		Doc: "People's Bank of China RMB central parity (CFETS/ChinaMoney ccpr.json): CNY per unit; other currencies via USD/CNY"},
}

const (
	cbrURL  = "https://www.cbr.ru/scripts/XML_daily.asp"
	ecbURL  = "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml"
	pbocURL = "https://www.chinamoney.com.cn/r/cms/www/chinamoney/data/fx/ccpr.json"
)

// cp1251 decodes windows-1251 (the Bank of Russia's XML encoding): ASCII
// as is, А–я and Ё/ё mapped, anything else U+FFFD. Only the ASCII fields
// (CharCode, Nominal, Value) are read.
func cp1251(r io.Reader) io.Reader {
	pr, pw := io.Pipe()
	go func() {
		br := bufio.NewReader(r)
		bw := bufio.NewWriter(pw)
		for {
			b, err := br.ReadByte()
			if err != nil {
				bw.Flush()
				pw.CloseWithError(err)
				return
			}
			switch {
			case b < 0x80:
				bw.WriteByte(b)
			case b >= 0xC0:
				bw.WriteRune(rune(0x410 + int(b) - 0xC0))
			case b == 0xA8:
				bw.WriteRune('Ё')
			case b == 0xB8:
				bw.WriteRune('ё')
			default:
				bw.WriteRune(utf8.RuneError)
			}
		}
	}()
	return pr
}

func newXMLDecoder(data []byte) *xml.Decoder {
	d := xml.NewDecoder(strings.NewReader(string(data)))
	d.CharsetReader = func(charset string, in io.Reader) (io.Reader, error) {
		switch strings.ToLower(charset) {
		case "windows-1251", "cp1251":
			return cp1251(in), nil
		case "utf-8", "":
			return in, nil
		}
		return nil, fmt.Errorf("charset %q not supported", charset)
	}
	return d
}

func positive(x float64) bool { return x > 0 && !math.IsInf(x, 0) && !math.IsNaN(x) }

// ParseCBR reads the Bank of Russia's XML_daily.asp answer.
func ParseCBR(data []byte) (map[string]float64, string, error) {
	var v struct {
		Date    string `xml:"Date,attr"`
		Valutes []struct {
			CharCode string `xml:"CharCode"`
			Nominal  string `xml:"Nominal"`
			Value    string `xml:"Value"`
		} `xml:"Valute"`
	}
	if err := newXMLDecoder(data).Decode(&v); err != nil {
		return nil, "", schemaErr(cbrURL, "%v", err)
	}
	t, err := time.Parse("02.01.2006", v.Date)
	if err != nil {
		return nil, "", schemaErr(cbrURL, "ValCurs Date %q is not DD.MM.YYYY", v.Date)
	}
	rubPer := map[string]float64{}
	for _, x := range v.Valutes {
		val, err1 := strconv.ParseFloat(strings.Replace(strings.TrimSpace(x.Value), ",", ".", 1), 64)
		nom, err2 := strconv.ParseFloat(strings.TrimSpace(x.Nominal), 64)
		if err1 != nil || err2 != nil || !positive(val) || !positive(nom) || !isUpper(x.CharCode, 3) {
			continue
		}
		rubPer[x.CharCode] = val / nom
	}
	usd := rubPer["USD"]
	if usd == 0 {
		return nil, "", schemaErr(cbrURL, "no USD rate")
	}
	out := map[string]float64{"USD": 1, "RUB": usd}
	for c, r := range rubPer {
		if c != "USD" {
			out[c] = round6(usd / r)
		}
	}
	return out, t.Format(catalog.DateLayout), nil
}

// ParseECB reads the ECB's eurofxref-daily.xml.
func ParseECB(data []byte) (map[string]float64, string, error) {
	var v struct {
		Cube struct {
			Cube []struct {
				Time  string `xml:"time,attr"`
				Rates []struct {
					Currency string `xml:"currency,attr"`
					Rate     string `xml:"rate,attr"`
				} `xml:"Cube"`
			} `xml:"Cube"`
		} `xml:"Cube"`
	}
	if err := newXMLDecoder(data).Decode(&v); err != nil {
		return nil, "", schemaErr(ecbURL, "%v", err)
	}
	if len(v.Cube.Cube) == 0 {
		return nil, "", schemaErr(ecbURL, "no dated Cube")
	}
	day := v.Cube.Cube[0]
	if _, err := catalog.AsOfTime(day.Time); err != nil {
		return nil, "", schemaErr(ecbURL, "Cube time %q is not a date", day.Time)
	}
	perEUR := map[string]float64{"EUR": 1}
	for _, r := range day.Rates {
		x, err := strconv.ParseFloat(r.Rate, 64)
		if err == nil && positive(x) && isUpper(r.Currency, 3) {
			perEUR[r.Currency] = x
		}
	}
	usd := perEUR["USD"]
	if usd == 0 {
		return nil, "", schemaErr(ecbURL, "no USD rate")
	}
	out := map[string]float64{}
	for c, x := range perEUR {
		out[c] = round6(x / usd)
	}
	out["USD"] = 1
	return out, day.Time, nil
}

var pbocPair = regexp.MustCompile(`^(\d*)([A-Z]{3})/([A-Z]{3})$`)

// ParsePBoC reads CFETS's central parity JSON: records of "USD/CNY",
// "100JPY/CNY" (CNY per 100 units) and "CNY/RUB" (units per CNY) quotes.
func ParsePBoC(data []byte) (map[string]float64, string, error) {
	var v struct {
		Data struct {
			LastDate string `json:"lastDate"`
		} `json:"data"`
		Records []struct {
			VrtEName string `json:"vrtEName"`
			Price    string `json:"price"`
		} `json:"records"`
	}
	src := pbocURL
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, "", schemaErr(src, "%v", err)
	}
	date, _, _ := strings.Cut(strings.TrimSpace(v.Data.LastDate), " ")
	if _, err := catalog.AsOfTime(date); err != nil {
		return nil, "", schemaErr(src, "data.lastDate %q is not a date", v.Data.LastDate)
	}
	cnyPer := map[string]float64{} // CNY per unit of currency
	for _, r := range v.Records {
		m := pbocPair.FindStringSubmatch(strings.ReplaceAll(r.VrtEName, " ", ""))
		x, err := strconv.ParseFloat(strings.TrimSpace(r.Price), 64)
		if m == nil || err != nil || !positive(x) {
			continue
		}
		n := 1.0
		if m[1] != "" {
			n, _ = strconv.ParseFloat(m[1], 64)
		}
		switch {
		case m[3] == "CNY" && positive(n):
			cnyPer[m[2]] = x / n
		case m[2] == "CNY":
			cnyPer[m[3]] = 1 / x
		}
	}
	usd := cnyPer["USD"]
	if usd == 0 {
		return nil, "", schemaErr(src, "no USD/CNY record")
	}
	out := map[string]float64{"USD": 1, "CNY": usd}
	for c, r := range cnyPer {
		if c != "USD" {
			out[c] = round6(usd / r)
		}
	}
	return out, date, nil
}

// FXReport is the outcome of an FX refresh.
type FXReport struct {
	Source string
	AsOf   string
	Err    error
	// Changed lists "EUR 0.856091 -> 0.8712 (+1.8%)" lines; Kept the
	// currencies the source does not publish (their old rate stays).
	Changed, Kept []string
}

// RefreshFX replaces the rates of the currencies src publishes (those
// fx.json already has), keeps the others, and validates; on any error
// fx.json is unchanged.
func (f *Files) RefreshFX(ctx context.Context, fetch *Fetcher, src FXSource, now time.Time) FXReport {
	r := FXReport{Source: src.Name}
	body, err := fetch.Get(ctx, src.URL, nil)
	if err != nil {
		r.Err = fmt.Errorf("%w; previous rates kept", err)
		return r
	}
	rates, asOf, err := src.Parse(body)
	if err != nil {
		r.Err = fmt.Errorf("%w; previous rates kept", err)
		return r
	}
	r.AsOf = asOf
	saved := slices.Clone(f.FX.Rates)
	for i := range f.FX.Rates {
		x := &f.FX.Rates[i]
		if x.Currency == "USD" {
			x.AsOf, x.Source = asOf, "identity"
			continue
		}
		n, ok := rates[x.Currency]
		if !ok || !positive(n) {
			r.Kept = append(r.Kept, fmt.Sprintf("%s %v (%s)", x.Currency, x.PerUSD, x.AsOf))
			continue
		}
		if n != x.PerUSD {
			r.Changed = append(r.Changed, fmt.Sprintf("%s %v -> %v (%+.1f%%)", x.Currency, x.PerUSD, n, 100*(n-x.PerUSD)/x.PerUSD))
		}
		x.PerUSD, x.AsOf = n, asOf
		x.Source = fmt.Sprintf("%s (%s), rates of %s, fetched %s", src.Doc, src.URL, asOf, fetch.AsOf())
	}
	if _, err := f.Catalog(now); err != nil {
		f.FX.Rates = saved
		r.Err = fmt.Errorf("the refreshed rates do not validate; previous rates kept:\n%v", err)
		r.Changed = nil
	}
	return r
}

// FXJSON renders fx.json.
func (f *Files) FXJSON() ([]byte, error) {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(f.FX); err != nil {
		return nil, err
	}
	return []byte(b.String()), nil
}

// WriteFX writes fx.json into dir.
func (f *Files) WriteFX(dir string) error {
	b, err := f.FXJSON()
	if err != nil {
		return err
	}
	return writeAtomic(filepath.Join(dir, FXFile), b)
}
