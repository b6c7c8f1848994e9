// Command gen-go writes the Go SDK of a Pulumi package schema: what `pulumi package gen-sdk
// --language go` does through the Go language host, which this project cannot build (the module
// proxy refuses its module). The host binds the schema and calls the same code generator,
// github.com/pulumi/pulumi/pkg/v3/codegen/go, at the version go.mod pins: the CLI's.
//
// Usage (scripts/genSdk.ts runs it): go run . <schema.json> <out dir>
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: go run . <schema.json> <out dir>")
		os.Exit(2)
	}
	if err := generate(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintf(os.Stderr, "gen-go: %v\n", err)
		os.Exit(1)
	}
}

func generate(schemaPath, out string) error {
	data, err := os.ReadFile(schemaPath)
	if err != nil {
		return err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(data, &spec); err != nil {
		return fmt.Errorf("%s is not a package schema: %w", schemaPath, err)
	}
	// A loader that loads nothing: the schema references no other package.
	pkg, diags, err := schema.BindSpec(spec, schema.NewNullLoader(), schema.ValidationOptions{})
	if err != nil {
		return err
	}
	if diags.HasErrors() {
		return fmt.Errorf("%s: %s", schemaPath, diags.Error())
	}
	// The tool name the Go language host passes, so the files are as `gen-sdk` would write them.
	files, err := gogen.GeneratePackage("pulumi-language-go", pkg, nil)
	if err != nil {
		return err
	}
	for name, content := range files {
		file := filepath.Join(out, name)
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(file, content, 0o644); err != nil {
			return err
		}
	}
	return nil
}
