package ipsw

import (
	"bytes"
	"encoding/base64"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// maxPlistDepth caps nesting in a property list.
const maxPlistDepth = 64

// parsePlist decodes an XML property list into Go values: map[string]any
// (dict), []any (array), string, int64, float64, bool, []byte (data; dates
// stay strings). Binary property lists are refused by name.
func parsePlist(data []byte) (any, error) {
	if bytes.HasPrefix(data, []byte("bplist")) {
		return nil, errors.New("plist: binary property list, only XML is read")
	}
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	for {
		tok, err := d.Token()
		if err != nil {
			return nil, plistErr(d, "no <plist> element", err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			if se.Name.Local != "plist" {
				return nil, plistErr(d, "root element <"+se.Name.Local+">, want <plist>", nil)
			}
			v, err := plistValue(d, 0)
			if err != nil {
				return nil, err
			}
			return v, nil
		}
	}
}

func plistErr(d *xml.Decoder, msg string, err error) error {
	if err != nil && err != io.EOF {
		msg += ": " + err.Error()
	}
	return fmt.Errorf("plist: %s (at offset 0x%x)", msg, d.InputOffset())
}

// nextStart returns the next start element, or nil at an end element.
func nextStart(d *xml.Decoder) (*xml.StartElement, error) {
	for {
		tok, err := d.Token()
		if err != nil {
			return nil, plistErr(d, "unexpected end", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			return &t, nil
		case xml.EndElement:
			return nil, nil
		}
	}
}

// plistValue reads the next value element.
func plistValue(d *xml.Decoder, depth int) (any, error) {
	se, err := nextStart(d)
	if err != nil {
		return nil, err
	}
	if se == nil {
		return nil, plistErr(d, "missing value", nil)
	}
	return plistElement(d, se, depth)
}

func plistElement(d *xml.Decoder, se *xml.StartElement, depth int) (any, error) {
	if depth > maxPlistDepth {
		return nil, plistErr(d, fmt.Sprintf("nesting deeper than %d", maxPlistDepth), nil)
	}
	switch se.Name.Local {
	case "dict":
		m := map[string]any{}
		for {
			k, err := nextStart(d)
			if err != nil {
				return nil, err
			}
			if k == nil {
				return m, nil
			}
			if k.Name.Local != "key" {
				return nil, plistErr(d, "<"+k.Name.Local+"> where a dict <key> belongs", nil)
			}
			var key string
			if err := d.DecodeElement(&key, k); err != nil {
				return nil, plistErr(d, "dict key", err)
			}
			v, err := plistValue(d, depth+1)
			if err != nil {
				return nil, err
			}
			m[key] = v
		}
	case "array":
		var a []any
		for {
			e, err := nextStart(d)
			if err != nil {
				return nil, err
			}
			if e == nil {
				return a, nil
			}
			v, err := plistElement(d, e, depth+1)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
	case "true", "false":
		if err := d.Skip(); err != nil {
			return nil, plistErr(d, se.Name.Local, err)
		}
		return se.Name.Local == "true", nil
	}
	var text string
	if err := d.DecodeElement(&text, se); err != nil {
		return nil, plistErr(d, "<"+se.Name.Local+">", err)
	}
	switch se.Name.Local {
	case "string", "date":
		return text, nil
	case "integer":
		n, err := strconv.ParseInt(strings.TrimSpace(text), 0, 64)
		if err != nil {
			return nil, plistErr(d, "integer", err)
		}
		return n, nil
	case "real":
		f, err := strconv.ParseFloat(strings.TrimSpace(text), 64)
		if err != nil {
			return nil, plistErr(d, "real", err)
		}
		return f, nil
	case "data":
		b, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(text), ""))
		if err != nil {
			return nil, plistErr(d, "data", err)
		}
		return b, nil
	}
	return nil, plistErr(d, "unknown element <"+se.Name.Local+">", nil)
}
