package main

import (
	"os/exec"
	"path/filepath"
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
