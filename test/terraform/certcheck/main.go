// Command certcheck judges AutoMTLS server certificates as go-plugin's client does: each stdin
// line is a certificate's DER in base64 without padding, as the handshake line carries it. It
// parses each with crypto/x509, pins it as the only root (go-plugin's client does the same) and
// verifies it for "localhost" and server authentication, and checks its self-signature; it prints "ok <count>" or the first failure.
package main

import (
	"bufio"
	"crypto/x509"
	"encoding/base64"
	"fmt"
	"os"
	"time"
)

func main() {
	scanner := bufio.NewScanner(os.Stdin)
	scanner.Buffer(make([]byte, 1<<20), 1<<20)
	count := 0
	for scanner.Scan() {
		der, err := base64.RawStdEncoding.DecodeString(scanner.Text())
		if err != nil {
			fail(count, "base64", err)
		}
		cert, err := x509.ParseCertificate(der)
		if err != nil {
			fail(count, "parse", err)
		}
		// A pinned root's own signature is not checked by Verify: check it here.
		if err := cert.CheckSignatureFrom(cert); err != nil {
			fail(count, "self-signature", err)
		}
		roots := x509.NewCertPool()
		roots.AddCert(cert)
		_, err = cert.Verify(x509.VerifyOptions{
			DNSName:     "localhost",
			Roots:       roots,
			CurrentTime: time.Now(),
			KeyUsages:   []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth},
		})
		if err != nil {
			fail(count, "verify", err)
		}
		if cert.SerialNumber.Sign() <= 0 {
			fail(count, "serial", fmt.Errorf("not positive: %v", cert.SerialNumber))
		}
		count++
	}
	fmt.Printf("ok %d\n", count)
}

func fail(index int, step string, err error) {
	fmt.Printf("certificate %d: %s: %v\n", index, step, err)
	os.Exit(1)
}
