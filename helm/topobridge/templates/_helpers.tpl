{{- define "topobridge.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "topobridge.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else if contains (include "topobridge.name" .) .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name (include "topobridge.name" .) | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{/* Labels of every object; each template adds its app.kubernetes.io/component. */}}
{{- define "topobridge.labels" -}}
app.kubernetes.io/name: {{ include "topobridge.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{- end -}}

{{/* The Deployment's selector: fixed for the life of a release (a Deployment's selector cannot change). */}}
{{- define "topobridge.selectorLabels" -}}
app.kubernetes.io/name: {{ include "topobridge.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{/* The controller's pods: what the Services, the spread and the disruption budget select (never the cleanup Job's pod). */}}
{{- define "topobridge.controllerLabels" -}}
{{ include "topobridge.selectorLabels" . }}
app.kubernetes.io/component: controller
{{- end -}}

{{- define "topobridge.image" -}}
{{- if .Values.image.digest -}}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest -}}
{{- else -}}
{{- printf "%s:%s" .Values.image.repository (.Values.image.tag | default .Chart.AppVersion) -}}
{{- end -}}
{{- end -}}

{{- define "topobridge.webhookServiceName" -}}
{{- printf "%s-webhook" (include "topobridge.fullname" .) | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "topobridge.tlsSecretName" -}}
{{- .Values.admission.tls.secretName | default (printf "%s-webhook-tls" (include "topobridge.fullname" .)) -}}
{{- end -}}

{{- define "topobridge.certificateName" -}}
{{- printf "%s-webhook" (include "topobridge.fullname" .) | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "topobridge.leaseName" -}}
{{- printf "%s-leader" (include "topobridge.fullname" .) | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "topobridge.leaderElection" -}}
{{- or .Values.leaderElection.enabled (gt (int .Values.replicaCount) 1) -}}
{{- end -}}

{{/* Namespaces the webhooks never intercept: kube-system and the release's own (the controller's pods live there). */}}
{{- define "topobridge.excludedNamespaces" -}}
{{- list "kube-system" .Release.Namespace | uniq | toJson -}}
{{- end -}}

{{/* The controller's tls.mode: with cert-manager it reads cert-manager's Secret as any other (secret). */}}
{{- define "topobridge.tlsMode" -}}
{{- if and .Values.certManager.enabled (eq .Values.admission.tls.mode "openshift-service-ca") -}}
{{- fail "certManager.enabled and admission.tls.mode=openshift-service-ca both issue the webhook certificate: choose one" -}}
{{- end -}}
{{- ternary "secret" .Values.admission.tls.mode .Values.certManager.enabled -}}
{{- end -}}

{{/*
Whether the chart renders the two webhook configurations, their caBundle injected by cert-manager or by OpenShift's
service-CA operator, and the controller leaves them alone (manage-configurations=false).
*/}}
{{- define "topobridge.chartOwnsWebhooks" -}}
{{- or .Values.certManager.enabled (eq .Values.admission.tls.mode "openshift-service-ca") -}}
{{- end -}}

{{/* The annotation that has the webhook configurations' caBundle injected. */}}
{{- define "topobridge.caInjection" -}}
{{- if .Values.certManager.enabled -}}
cert-manager.io/inject-ca-from: {{ printf "%s/%s" .Release.Namespace (include "topobridge.certificateName" .) }}
{{- else -}}
service.beta.openshift.io/inject-cabundle: "true"
{{- end -}}
{{- end -}}

{{/* Whether the chart makes the webhook certificate's Secret, empty, for the controller to fill (generate mode). */}}
{{- define "topobridge.makesTlsSecret" -}}
{{- and .Values.admission.enabled (not .Values.certManager.enabled) (eq .Values.admission.tls.mode "generate") -}}
{{- end -}}

{{- define "topobridge.cleanupName" -}}
{{- printf "%s-cleanup" (include "topobridge.fullname" .) | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/*
The controller's configuration (topobridge.* keys as environment variables). The cleanup hook gets the same
list, so it finds exactly the objects this controller makes.
*/}}
{{- define "topobridge.env" -}}
- name: POD_NAMESPACE
  valueFrom:
    fieldRef:
      fieldPath: metadata.namespace
- name: QUARKUS_LOG_CATEGORY__IO_TOPOBRIDGE__LEVEL
  value: {{ .Values.logLevel | quote }}
- name: TOPOBRIDGE_LEADER_ELECTION_ENABLED
  value: {{ include "topobridge.leaderElection" . | quote }}
- name: TOPOBRIDGE_LEADER_ELECTION_LEASE_NAME
  value: {{ include "topobridge.leaseName" . | quote }}
- name: TOPOBRIDGE_LEADER_ELECTION_LEASE_NAMESPACE
  value: {{ .Release.Namespace | quote }}
- name: TOPOBRIDGE_LEADER_ELECTION_LEASE_DURATION
  value: {{ .Values.leaderElection.leaseDuration | quote }}
- name: TOPOBRIDGE_LEADER_ELECTION_RENEW_DEADLINE
  value: {{ .Values.leaderElection.renewDeadline | quote }}
- name: TOPOBRIDGE_LEADER_ELECTION_RETRY_PERIOD
  value: {{ .Values.leaderElection.retryPeriod | quote }}
- name: TOPOBRIDGE_TOPOLOGY_ENABLED
  value: {{ .Values.topology.enabled | quote }}
- name: TOPOBRIDGE_TOPOLOGY_PRESET
  value: {{ .Values.topology.preset | quote }}
{{- if .Values.topology.tiers }}
- name: TOPOBRIDGE_TOPOLOGY_TIERS
  value: {{ join "," .Values.topology.tiers | quote }}
{{- end }}
- name: TOPOBRIDGE_TOPOLOGY_DEBOUNCE
  value: {{ .Values.topology.debounce | quote }}
- name: TOPOBRIDGE_TOPOLOGY_MAX_DELAY
  value: {{ .Values.topology.maxDelay | quote }}
- name: TOPOBRIDGE_WORKLOADS_ENABLED
  value: {{ .Values.workloads.enabled | quote }}
- name: TOPOBRIDGE_WORKLOADS_DEFAULT_QUEUE
  value: {{ .Values.workloads.defaultQueue | quote }}
- name: TOPOBRIDGE_WORKLOADS_REQUIRE_NAMESPACE_OPT_IN
  value: {{ .Values.workloads.requireNamespaceOptIn | quote }}
- name: TOPOBRIDGE_WORKLOADS_QUEUES_WITHOUT_ALLOW_LIST
  value: {{ .Values.workloads.queuesWithoutAllowList | quote }}
- name: TOPOBRIDGE_WORKLOADS_MAX_PODGROUPS_PER_NAMESPACE
  value: {{ .Values.workloads.maxPodGroupsPerNamespace | quote }}
- name: TOPOBRIDGE_WORKLOADS_MAX_GANGS_PER_WORKLOAD
  value: {{ .Values.workloads.maxGangsPerWorkload | quote }}
- name: TOPOBRIDGE_WORKLOADS_MAX_NAMESPACE_SHARE
  value: {{ .Values.workloads.maxNamespaceShare | quote }}
- name: TOPOBRIDGE_WORKLOADS_MAX_NAMESPACE_RESERVATION
  value: {{ join "," .Values.workloads.maxNamespaceReservation | quote }}
- name: TOPOBRIDGE_WORKLOADS_AUTO_TIER_MIN_DOMAINS
  value: {{ .Values.workloads.autoTierMinDomains | quote }}
- name: TOPOBRIDGE_WORKLOADS_AUTO_WAIT_FOR_ROOM
  value: {{ .Values.workloads.autoWaitForRoom | quote }}
- name: TOPOBRIDGE_WORKLOADS_ACCELERATOR_RESOURCES
  value: {{ join "," .Values.workloads.acceleratorResources | quote }}
- name: TOPOBRIDGE_WORKLOADS_DRA_DEVICE_CLASSES
  value: {{ join "," .Values.workloads.draDeviceClasses | quote }}
- name: TOPOBRIDGE_WORKLOADS_GROUP_ASSEMBLY
  value: {{ .Values.workloads.groupAssembly | quote }}
- name: TOPOBRIDGE_WORKLOADS_DOMAIN_LOSS_GRACE
  value: {{ .Values.workloads.domainLossGrace | quote }}
- name: TOPOBRIDGE_WORKLOADS_MAX_CONCURRENT_RESTARTS
  value: {{ .Values.workloads.maxConcurrentRestarts | quote }}
- name: TOPOBRIDGE_WORKLOADS_DEBOUNCE
  value: {{ .Values.workloads.debounce | quote }}
- name: TOPOBRIDGE_WORKLOADS_MAX_DELAY
  value: {{ .Values.workloads.maxDelay | quote }}
- name: TOPOBRIDGE_WORKLOADS_RESYNC
  value: {{ .Values.workloads.resync | quote }}
- name: TOPOBRIDGE_DIAGNOSIS_PENDING_EVENT_AFTER
  value: {{ .Values.diagnosis.pendingEventAfter | quote }}
- name: TOPOBRIDGE_FINDINGS_MAX_PER_OBJECT
  value: {{ .Values.findings.maxPerObject | quote }}
- name: TOPOBRIDGE_EVENTS_QPS
  value: {{ .Values.events.qps | quote }}
- name: TOPOBRIDGE_EVENTS_BURST
  value: {{ .Values.events.burst | quote }}
- name: TOPOBRIDGE_EVENTS_PER_OBJECT_QPS
  value: {{ .Values.events.perObjectQps | quote }}
- name: TOPOBRIDGE_EVENTS_PER_OBJECT_BURST
  value: {{ .Values.events.perObjectBurst | quote }}
- name: TOPOBRIDGE_EVENTS_QUEUE_SIZE
  value: {{ .Values.events.queueSize | quote }}
- name: TOPOBRIDGE_ADMISSION_ENABLED
  value: {{ .Values.admission.enabled | quote }}
- name: TOPOBRIDGE_ADMISSION_NAMESPACE_LABEL
  value: {{ .Values.admission.namespaceLabel | quote }}
- name: TOPOBRIDGE_ADMISSION_SCHEDULER_NAME
  value: {{ .Values.admission.schedulerName | quote }}
- name: TOPOBRIDGE_ADMISSION_VALIDATE_WORKLOADS
  value: {{ .Values.admission.validateWorkloads | quote }}
- name: TOPOBRIDGE_ADMISSION_ADOPT_PODGROUPS
  value: {{ .Values.admission.adoptPodGroups | quote }}
- name: TOPOBRIDGE_ADMISSION_HOST
  value: "0.0.0.0"
- name: TOPOBRIDGE_ADMISSION_PORT
  value: "8443"
- name: TOPOBRIDGE_ADMISSION_SERVICE_NAME
  value: {{ include "topobridge.webhookServiceName" . | quote }}
- name: TOPOBRIDGE_ADMISSION_SERVICE_NAMESPACE
  value: {{ .Release.Namespace | quote }}
- name: TOPOBRIDGE_ADMISSION_SERVICE_PORT
  value: "443"
- name: TOPOBRIDGE_ADMISSION_MANAGE_CONFIGURATIONS
  value: {{ ne (include "topobridge.chartOwnsWebhooks" .) "true" | quote }}
- name: TOPOBRIDGE_ADMISSION_CONFIGURATION_NAME
  value: {{ include "topobridge.fullname" . | quote }}
- name: TOPOBRIDGE_ADMISSION_POD_FAILURE_POLICY
  value: {{ .Values.admission.podFailurePolicy | quote }}
- name: TOPOBRIDGE_ADMISSION_WORKLOAD_FAILURE_POLICY
  value: {{ .Values.admission.workloadFailurePolicy | quote }}
- name: TOPOBRIDGE_ADMISSION_TIMEOUT
  value: {{ .Values.admission.timeout | quote }}
- name: TOPOBRIDGE_ADMISSION_SELF_POD_LABEL
  value: {{ printf "app.kubernetes.io/name=%s" (include "topobridge.name" .) | quote }}
- name: TOPOBRIDGE_ADMISSION_TLS_MODE
  value: {{ include "topobridge.tlsMode" . | quote }}
- name: TOPOBRIDGE_ADMISSION_TLS_SECRET_NAME
  value: {{ include "topobridge.tlsSecretName" . | quote }}
- name: TOPOBRIDGE_ADMISSION_TLS_VALIDITY
  value: {{ .Values.admission.tls.validity | quote }}
- name: TOPOBRIDGE_ADMISSION_TLS_CA_VALIDITY
  value: {{ .Values.admission.tls.caValidity | quote }}
- name: TOPOBRIDGE_ADMISSION_TLS_RENEW_BEFORE
  value: {{ .Values.admission.tls.renewBefore | quote }}
- name: TOPOBRIDGE_ADMISSION_TLS_CHECK_INTERVAL
  value: {{ .Values.admission.tls.checkInterval | quote }}
- name: TOPOBRIDGE_ADMISSION_LIMITS_MAX_BODY_SIZE
  value: {{ .Values.admission.limits.maxBodySize | quote }}
- name: TOPOBRIDGE_ADMISSION_LIMITS_MAX_JSON_DEPTH
  value: {{ .Values.admission.limits.maxJsonDepth | int64 | quote }}
- name: TOPOBRIDGE_ADMISSION_LIMITS_MAX_JSON_TOKENS
  value: {{ .Values.admission.limits.maxJsonTokens | int64 | quote }}
- name: TOPOBRIDGE_ADMISSION_LIMITS_MAX_CONCURRENT_REVIEWS
  value: {{ .Values.admission.limits.maxConcurrentReviews | int64 | quote }}
- name: TOPOBRIDGE_ADMISSION_LIMITS_MAX_IN_FLIGHT_BYTES
  value: {{ .Values.admission.limits.maxInFlightBytes | quote }}
- name: TOPOBRIDGE_HTTP_AUTH_MODE
  value: {{ .Values.httpAuth.mode | quote }}
- name: TOPOBRIDGE_HTTP_AUTH_ALLOW_LOOPBACK
  value: {{ .Values.httpAuth.allowLoopback | quote }}
- name: TOPOBRIDGE_HTTP_AUTH_CACHE_TTL
  value: {{ .Values.httpAuth.cacheTtl | quote }}
- name: TOPOBRIDGE_HTTP_AUTH_CACHE_SIZE
  value: {{ .Values.httpAuth.cacheSize | int64 | quote }}
- name: TOPOBRIDGE_VOLCANO_SCHEDULER_CONFIG_NAMESPACE
  value: {{ .Values.volcano.schedulerConfigNamespace | quote }}
- name: TOPOBRIDGE_VOLCANO_SCHEDULER_CONFIG_NAME
  value: {{ .Values.volcano.schedulerConfigName | quote }}
- name: TOPOBRIDGE_VOLCANO_SCHEDULER_CONFIG_KEY
  value: {{ .Values.volcano.schedulerConfigKey | quote }}
{{- range $name, $value := .Values.extraEnv }}
- name: {{ $name }}
  value: {{ $value | quote }}
{{- end }}
{{- end -}}
