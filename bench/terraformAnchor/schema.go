package main

// The anchor's schema is our provider's, read at start from `tofu providers schema -json`'s entry
// for it (the file WEBHOOKS_ANCHOR_SCHEMA names), so that the schema is written once: in the model.

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// jsonSchema is one schema of `providers schema -json` (provider, resource or data source).
type jsonSchema struct {
	Version int64     `json:"version"`
	Block   jsonBlock `json:"block"`
}

type jsonBlock struct {
	Attributes map[string]jsonAttribute `json:"attributes"`
	BlockTypes map[string]jsonBlockType `json:"block_types"`
}

type jsonAttribute struct {
	Type       json.RawMessage `json:"type"`
	NestedType *jsonNestedType `json:"nested_type"`
	Required   bool            `json:"required"`
	Optional   bool            `json:"optional"`
	Computed   bool            `json:"computed"`
	Sensitive  bool            `json:"sensitive"`
	WriteOnly  bool            `json:"write_only"`
}

type jsonNestedType struct {
	Attributes  map[string]jsonAttribute `json:"attributes"`
	NestingMode string                   `json:"nesting_mode"`
}

type jsonBlockType struct {
	NestingMode string    `json:"nesting_mode"`
	Block       jsonBlock `json:"block"`
	MinItems    int64     `json:"min_items"`
	MaxItems    int64     `json:"max_items"`
}

// jsonProvider is one provider's entry of `providers schema -json`'s provider_schemas.
type jsonProvider struct {
	Provider          jsonSchema            `json:"provider"`
	ResourceSchemas   map[string]jsonSchema `json:"resource_schemas"`
	DataSourceSchemas map[string]jsonSchema `json:"data_source_schemas"`
}

// providerSchemas is the anchor's schema in terraform-plugin-go's types.
type providerSchemas struct {
	provider    *tfprotov6.Schema
	resources   map[string]*tfprotov6.Schema
	dataSources map[string]*tfprotov6.Schema
}

func loadSchemas(path string) (*providerSchemas, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var p jsonProvider
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	out := &providerSchemas{resources: map[string]*tfprotov6.Schema{}, dataSources: map[string]*tfprotov6.Schema{}}
	if out.provider, err = convertSchema(p.Provider); err != nil {
		return nil, err
	}
	for name, s := range p.ResourceSchemas {
		if out.resources[name], err = convertSchema(s); err != nil {
			return nil, fmt.Errorf("resource %s: %w", name, err)
		}
	}
	for name, s := range p.DataSourceSchemas {
		if out.dataSources[name], err = convertSchema(s); err != nil {
			return nil, fmt.Errorf("data source %s: %w", name, err)
		}
	}
	return out, nil
}

func convertSchema(s jsonSchema) (*tfprotov6.Schema, error) {
	block, err := convertBlock(s.Block)
	if err != nil {
		return nil, err
	}
	return &tfprotov6.Schema{Version: s.Version, Block: block}, nil
}

// sortedKeys keeps the schema's order stable between runs.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func convertBlock(b jsonBlock) (*tfprotov6.SchemaBlock, error) {
	attributes, err := convertAttributes(b.Attributes)
	if err != nil {
		return nil, err
	}
	out := &tfprotov6.SchemaBlock{Attributes: attributes}
	for _, name := range sortedKeys(b.BlockTypes) {
		bt := b.BlockTypes[name]
		inner, err := convertBlock(bt.Block)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out.BlockTypes = append(out.BlockTypes, &tfprotov6.SchemaNestedBlock{
			TypeName: name, Block: inner, Nesting: blockNesting[bt.NestingMode], MinItems: bt.MinItems, MaxItems: bt.MaxItems,
		})
	}
	return out, nil
}

func convertAttributes(attrs map[string]jsonAttribute) ([]*tfprotov6.SchemaAttribute, error) {
	var out []*tfprotov6.SchemaAttribute
	for _, name := range sortedKeys(attrs) {
		a := attrs[name]
		attr := &tfprotov6.SchemaAttribute{
			Name: name, Required: a.Required, Optional: a.Optional, Computed: a.Computed,
			Sensitive: a.Sensitive, WriteOnly: a.WriteOnly,
		}
		if a.NestedType != nil {
			nested, err := convertAttributes(a.NestedType.Attributes)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			attr.NestedType = &tfprotov6.SchemaObject{Attributes: nested, Nesting: objectNesting[a.NestedType.NestingMode]}
		} else {
			typ, err := tftypes.ParseJSONType(a.Type) //nolint:staticcheck // the type as `providers schema -json` writes it
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			attr.Type = typ
		}
		out = append(out, attr)
	}
	return out, nil
}

var blockNesting = map[string]tfprotov6.SchemaNestedBlockNestingMode{
	"single": tfprotov6.SchemaNestedBlockNestingModeSingle,
	"list":   tfprotov6.SchemaNestedBlockNestingModeList,
	"set":    tfprotov6.SchemaNestedBlockNestingModeSet,
	"map":    tfprotov6.SchemaNestedBlockNestingModeMap,
	"group":  tfprotov6.SchemaNestedBlockNestingModeGroup,
}

var objectNesting = map[string]tfprotov6.SchemaObjectNestingMode{
	"single": tfprotov6.SchemaObjectNestingModeSingle,
	"list":   tfprotov6.SchemaObjectNestingModeList,
	"set":    tfprotov6.SchemaObjectNestingModeSet,
	"map":    tfprotov6.SchemaObjectNestingModeMap,
}
