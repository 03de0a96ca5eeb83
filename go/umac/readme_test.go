package umac

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// readmeBlock is a Go block of ../README.md with the line before it,
// <!-- FILE FUNC -->, which names the compiled code it copies.
var readmeBlock = regexp.MustCompile("(?s)(?:<!-- (\\S+) (\\S+) -->\n)?```go\n(.*?)```")

// TestReadmeCodeIsCompiledCode: every Go block of the package README is the
// body of an Example (compiled, and run with its output checked, by go
// test) or a whole function of a test file, character for character, so
// that the README shows only code that compiles. Files of the ssh module
// (in the repository, not in this module) are checked where present.
func TestReadmeCodeIsCompiledCode(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	matches := readmeBlock.FindAllStringSubmatch(string(readme), -1)
	if len(matches) < 5 {
		t.Fatalf("README has %d Go blocks, want the API examples and the SSH client", len(matches))
	}
	for _, m := range matches {
		file, name, block := m[1], m[2], m[3]
		if file == "" {
			t.Errorf("a Go block of the README names no source (<!-- FILE FUNC --> before it):\n%s", block)
			continue
		}
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("..", filepath.FromSlash(file)))
			if errors.Is(err, fs.ErrNotExist) && strings.HasPrefix(file, "ssh/") {
				t.Skipf("%s is not in this copy (the ssh module lives in the repository only)", file)
			}
			if err != nil {
				t.Fatal(err)
			}
			code, ok := functionText(string(src), name)
			if !ok {
				t.Fatalf("%s has no func %s", file, name)
			}
			if code != block {
				t.Fatalf("the README's block differs from %s in %s:\nREADME:\n%s\nsource:\n%s", name, file, block, code)
			}
		})
	}
}

// functionText returns the body of Example function name in src, one tab
// of indentation removed, or the whole declaration of another function.
func functionText(src, name string) (string, bool) {
	start := strings.Index(src, "\nfunc "+name+"(")
	if start < 0 {
		return "", false
	}
	decl := src[start+1:]
	end := strings.Index(decl, "\n}\n")
	if end < 0 {
		return "", false
	}
	decl = decl[:end+3]
	if !strings.HasPrefix(name, "Example") {
		return decl, true
	}
	lines := strings.Split(decl, "\n")
	body := lines[1 : len(lines)-2]
	for i, line := range body {
		body[i] = strings.TrimPrefix(line, "\t")
	}
	return strings.Join(body, "\n") + "\n", true
}
