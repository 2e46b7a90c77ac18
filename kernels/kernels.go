//go:build cuda

package kernels

import (
	"embed"
	"regexp"
	"sort"
	"strings"
)

// ptxFS holds kernels/ptx/*.ptx, built by `make ptx` before any cuda build.
//
//go:embed ptx/*.ptx
var ptxFS embed.FS

// Names lists the PTX modules, one per .cu file, without extension.
func Names() []string {
	ents, err := ptxFS.ReadDir("ptx")
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		if n, ok := strings.CutSuffix(e.Name(), ".ptx"); ok {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// PTX returns the PTX text of module name (nil when there is none). The
// text ends with a NUL byte, as cuModuleLoadData expects of PTX images.
func PTX(name string) []byte {
	b, err := ptxFS.ReadFile("ptx/" + name + ".ptx")
	if err != nil {
		return nil
	}
	return append(b[:len(b):len(b)], 0)
}

var entryRE = regexp.MustCompile(`(?m)^\s*\.(?:visible\s+)?\.entry\s+([A-Za-z_][A-Za-z0-9_]*)\s*\(`)

// Functions lists the kernel entry points (extern "C" names) of module name.
func Functions(name string) []string {
	b, err := ptxFS.ReadFile("ptx/" + name + ".ptx")
	if err != nil {
		return nil
	}
	var out []string
	for _, m := range entryRE.FindAllSubmatch(b, -1) {
		out = append(out, string(m[1]))
	}
	return out
}
