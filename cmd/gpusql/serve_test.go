package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestE2EMySQLClient runs scripts/e2e-mysql-client.sh: bin/gpusql serve
// driven by the MariaDB command-line client (CI installs mariadb-client;
// elsewhere the test skips without it).
func TestE2EMySQLClient(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test")
	}
	if _, err := exec.LookPath("mariadb"); err != nil {
		t.Skip("the mariadb client is not installed (apt-get install mariadb-client)")
	}
	bin := filepath.Join(t.TempDir(), "gpusql")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command("bash", "../../scripts/e2e-mysql-client.sh", bin)
	out, err := cmd.CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("e2e-mysql-client.sh: %v", err)
	}
}

// TestServeRefuses: no users without --insecure-no-auth, and no
// unauthenticated serving beyond loopback.
func TestServeRefuses(t *testing.T) {
	for _, args := range [][]string{
		{"serve", "--mysql", "127.0.0.1:0"},
		{"serve", "--mysql", "0.0.0.0:0", "--insecure-no-auth"},
		{"serve", "--mysql", "", "--flight", "", "--insecure-no-auth"},
	} {
		var out, errOut strings.Builder
		if rc := run(args, strings.NewReader(""), &out, &errOut); rc == 0 {
			t.Errorf("%v: served (rc 0); stderr %q", args, errOut.String())
		}
	}
}
