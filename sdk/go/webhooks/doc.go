// Manage webhook subscriptions as code.
package webhooks
