# WAF custom rules and a rate limit of a zone, as Terraform configuration (Cloudflare provider 5).
# `cfrules validate examples/terraform` checks every rule expression in this directory.

variable "zone_id" {
  type = string
}

variable "office_ips" {
  type    = string
  default = "{192.0.2.0/24 198.51.100.7}"
}

resource "cloudflare_ruleset" "custom" {
  zone_id     = var.zone_id
  name        = "Custom rules"
  description = "WAF custom rules"
  kind        = "zone"
  phase       = "http_request_firewall_custom"

  rules = [
    {
      ref         = "admin-office-only"
      description = "Only the office reaches /admin"
      action      = "block"
      expression  = "starts_with(http.request.uri.path, \"/admin\") and not ip.src in {192.0.2.0/24}"
    },
    {
      ref         = "challenge-scanners"
      description = "Challenge a known scanner"
      action      = "managed_challenge"
      expression  = <<-EOT
        http.user_agent contains "sqlmap"
          or http.request.headers["User-Agent"][0] contains "nikto"
      EOT
    },
    {
      ref         = "office-bypass"
      description = "The office skips the rest"
      action      = "skip"
      action_parameters = {
        ruleset = "current"
      }
      expression = "ip.src in ${var.office_ips}"
    },
  ]
}

resource "cloudflare_ruleset" "rate_limit" {
  zone_id = var.zone_id
  name    = "Rate limits"
  kind    = "zone"
  phase   = "http_ratelimit"

  rules = [
    {
      ref         = "login-rate"
      description = "Slow down logins"
      action      = "block"
      expression  = "http.request.uri.path eq \"/login\" and http.request.method eq \"POST\""
      ratelimit = {
        characteristics     = ["ip.src", "cf.colo.id"]
        period              = 60
        requests_per_period = 10
        mitigation_timeout  = 600
      }
    },
  ]
}
