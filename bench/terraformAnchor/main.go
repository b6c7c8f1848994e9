// The Go anchor of the Terraform bench (bench/terraform.ts): a tfplugin6 provider on
// terraform-plugin-go with our provider's schema, doing no I/O. Plan marks what the provider
// computes unknown; apply fills it with made-up values (a GUID, a signature); read returns the state
// it is given. What tofu spends with it is the floor of what any provider of this schema costs.
package main

import (
	"context"
	"fmt"
	"math/big"
	"os"
	"sync/atomic"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// schemaEnv names the file holding our provider's `providers schema -json` entry.
const schemaEnv = "WEBHOOKS_ANCHOR_SCHEMA"

func main() {
	schemas, err := loadSchemas(os.Getenv(schemaEnv))
	if err != nil {
		fmt.Fprintf(os.Stderr, "terraform anchor: %s must name a `providers schema -json` provider entry: %v\n", schemaEnv, err)
		os.Exit(1)
	}
	if err := tf6server.Serve("registry.opentofu.org/webhook-subscriptions/webhooks",
		func() tfprotov6.ProviderServer { return &anchor{schemas: schemas} }); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

type anchor struct {
	schemas *providerSchemas
	made    atomic.Uint64
}

func (a *anchor) GetMetadata(context.Context, *tfprotov6.GetMetadataRequest) (*tfprotov6.GetMetadataResponse, error) {
	out := &tfprotov6.GetMetadataResponse{ServerCapabilities: &tfprotov6.ServerCapabilities{GetProviderSchemaOptional: false}}
	for _, name := range sortedKeys(a.schemas.resources) {
		out.Resources = append(out.Resources, tfprotov6.ResourceMetadata{TypeName: name})
	}
	for _, name := range sortedKeys(a.schemas.dataSources) {
		out.DataSources = append(out.DataSources, tfprotov6.DataSourceMetadata{TypeName: name})
	}
	return out, nil
}

func (a *anchor) GetProviderSchema(context.Context, *tfprotov6.GetProviderSchemaRequest) (*tfprotov6.GetProviderSchemaResponse, error) {
	return &tfprotov6.GetProviderSchemaResponse{
		Provider:                 a.schemas.provider,
		ResourceSchemas:          a.schemas.resources,
		DataSourceSchemas:        a.schemas.dataSources,
		Functions:                map[string]*tfprotov6.Function{},
		EphemeralResourceSchemas: map[string]*tfprotov6.Schema{},
	}, nil
}

func (a *anchor) GetResourceIdentitySchemas(context.Context, *tfprotov6.GetResourceIdentitySchemasRequest) (*tfprotov6.GetResourceIdentitySchemasResponse, error) {
	return &tfprotov6.GetResourceIdentitySchemasResponse{IdentitySchemas: map[string]*tfprotov6.ResourceIdentitySchema{}}, nil
}

func (a *anchor) ValidateProviderConfig(_ context.Context, req *tfprotov6.ValidateProviderConfigRequest) (*tfprotov6.ValidateProviderConfigResponse, error) {
	return &tfprotov6.ValidateProviderConfigResponse{PreparedConfig: req.Config}, nil
}

func (a *anchor) ConfigureProvider(context.Context, *tfprotov6.ConfigureProviderRequest) (*tfprotov6.ConfigureProviderResponse, error) {
	return &tfprotov6.ConfigureProviderResponse{}, nil
}

func (a *anchor) StopProvider(context.Context, *tfprotov6.StopProviderRequest) (*tfprotov6.StopProviderResponse, error) {
	return &tfprotov6.StopProviderResponse{}, nil
}

func (a *anchor) ValidateResourceConfig(context.Context, *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	return &tfprotov6.ValidateResourceConfigResponse{}, nil
}

func (a *anchor) UpgradeResourceState(_ context.Context, req *tfprotov6.UpgradeResourceStateRequest) (*tfprotov6.UpgradeResourceStateResponse, error) {
	typ := a.schemas.resources[req.TypeName].ValueType()
	value, err := req.RawState.UnmarshalWithOpts(typ, tfprotov6.UnmarshalOpts{ValueFromJSONOpts: tftypes.ValueFromJSONOpts{IgnoreUndefinedAttributes: true}})
	if err != nil {
		return nil, err
	}
	state, err := tfprotov6.NewDynamicValue(typ, value)
	return &tfprotov6.UpgradeResourceStateResponse{UpgradedState: &state}, err
}

func (a *anchor) ReadResource(_ context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	return &tfprotov6.ReadResourceResponse{NewState: req.CurrentState, Private: req.Private}, nil
}

// PlanResourceChange plans a create's computed attributes unknown and keeps write-only ones out.
func (a *anchor) PlanResourceChange(_ context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	schema := a.schemas.resources[req.TypeName]
	typ := schema.ValueType()
	proposed, err := req.ProposedNewState.Unmarshal(typ)
	if err != nil || proposed.IsNull() {
		return &tfprotov6.PlanResourceChangeResponse{PlannedState: req.ProposedNewState, PlannedPrivate: req.PriorPrivate}, err
	}
	prior, err := req.PriorState.Unmarshal(typ)
	if err != nil {
		return nil, err
	}
	planned, err := topLevel(proposed, schema, func(attr *tfprotov6.SchemaAttribute, v tftypes.Value) tftypes.Value {
		switch {
		case attr.WriteOnly:
			return tftypes.NewValue(v.Type(), nil)
		case attr.Computed && prior.IsNull() && v.IsNull():
			return tftypes.NewValue(v.Type(), tftypes.UnknownValue)
		}
		return v
	})
	if err != nil {
		return nil, err
	}
	out, err := tfprotov6.NewDynamicValue(typ, planned)
	return &tfprotov6.PlanResourceChangeResponse{PlannedState: &out, PlannedPrivate: req.PriorPrivate}, err
}

// ApplyResourceChange "creates" by filling the plan's unknowns with made-up values.
func (a *anchor) ApplyResourceChange(_ context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	typ := a.schemas.resources[req.TypeName].ValueType()
	planned, err := req.PlannedState.Unmarshal(typ)
	if err != nil || planned.IsNull() {
		return &tfprotov6.ApplyResourceChangeResponse{NewState: req.PlannedState}, err
	}
	made := a.made.Add(1)
	applied, err := tftypes.Transform(planned, func(_ *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
		if v.IsKnown() {
			return v, nil
		}
		switch {
		case v.Type().Is(tftypes.String):
			return tftypes.NewValue(tftypes.String, fmt.Sprintf("00000000-0000-4000-8000-%012x", made)), nil
		case v.Type().Is(tftypes.Number):
			return tftypes.NewValue(tftypes.Number, big.NewFloat(0)), nil
		case v.Type().Is(tftypes.Bool):
			return tftypes.NewValue(tftypes.Bool, false), nil
		}
		return tftypes.NewValue(v.Type(), nil), nil
	})
	if err != nil {
		return nil, err
	}
	out, err := tfprotov6.NewDynamicValue(typ, applied)
	return &tfprotov6.ApplyResourceChangeResponse{NewState: &out, Private: req.PlannedPrivate}, err
}

// topLevel maps each top-level attribute of an object value through change.
func topLevel(v tftypes.Value, schema *tfprotov6.Schema, change func(*tfprotov6.SchemaAttribute, tftypes.Value) tftypes.Value) (tftypes.Value, error) {
	var fields map[string]tftypes.Value
	if err := v.As(&fields); err != nil {
		return v, err
	}
	for _, attr := range schema.Block.Attributes {
		if field, ok := fields[attr.Name]; ok {
			fields[attr.Name] = change(attr, field)
		}
	}
	return tftypes.NewValue(v.Type(), fields), nil
}

func (a *anchor) ImportResourceState(context.Context, *tfprotov6.ImportResourceStateRequest) (*tfprotov6.ImportResourceStateResponse, error) {
	return nil, fmt.Errorf("the bench anchor imports nothing")
}

func (a *anchor) MoveResourceState(context.Context, *tfprotov6.MoveResourceStateRequest) (*tfprotov6.MoveResourceStateResponse, error) {
	return nil, fmt.Errorf("the bench anchor moves nothing")
}

func (a *anchor) UpgradeResourceIdentity(context.Context, *tfprotov6.UpgradeResourceIdentityRequest) (*tfprotov6.UpgradeResourceIdentityResponse, error) {
	return nil, fmt.Errorf("the bench anchor has no identity")
}

func (a *anchor) GenerateResourceConfig(context.Context, *tfprotov6.GenerateResourceConfigRequest) (*tfprotov6.GenerateResourceConfigResponse, error) {
	return nil, fmt.Errorf("the bench anchor generates no configuration")
}

func (a *anchor) ValidateDataResourceConfig(context.Context, *tfprotov6.ValidateDataResourceConfigRequest) (*tfprotov6.ValidateDataResourceConfigResponse, error) {
	return &tfprotov6.ValidateDataResourceConfigResponse{}, nil
}

func (a *anchor) ReadDataSource(_ context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	return &tfprotov6.ReadDataSourceResponse{State: req.Config}, nil
}

func (a *anchor) CallFunction(context.Context, *tfprotov6.CallFunctionRequest) (*tfprotov6.CallFunctionResponse, error) {
	return nil, fmt.Errorf("the bench anchor has no functions")
}

func (a *anchor) GetFunctions(context.Context, *tfprotov6.GetFunctionsRequest) (*tfprotov6.GetFunctionsResponse, error) {
	return &tfprotov6.GetFunctionsResponse{Functions: map[string]*tfprotov6.Function{}}, nil
}

func (a *anchor) ValidateEphemeralResourceConfig(context.Context, *tfprotov6.ValidateEphemeralResourceConfigRequest) (*tfprotov6.ValidateEphemeralResourceConfigResponse, error) {
	return &tfprotov6.ValidateEphemeralResourceConfigResponse{}, nil
}

func (a *anchor) OpenEphemeralResource(context.Context, *tfprotov6.OpenEphemeralResourceRequest) (*tfprotov6.OpenEphemeralResourceResponse, error) {
	return nil, fmt.Errorf("the bench anchor has no ephemeral resources")
}

func (a *anchor) RenewEphemeralResource(context.Context, *tfprotov6.RenewEphemeralResourceRequest) (*tfprotov6.RenewEphemeralResourceResponse, error) {
	return nil, fmt.Errorf("the bench anchor has no ephemeral resources")
}

func (a *anchor) CloseEphemeralResource(context.Context, *tfprotov6.CloseEphemeralResourceRequest) (*tfprotov6.CloseEphemeralResourceResponse, error) {
	return nil, fmt.Errorf("the bench anchor has no ephemeral resources")
}
