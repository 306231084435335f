{{/* Names and labels shared by every template. */}}
{{- define "avatar-drive.name" -}}
{{- .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "avatar-drive.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "avatar-drive.selectorLabels" -}}
app.kubernetes.io/name: {{ include "avatar-drive.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "avatar-drive.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{ include "avatar-drive.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
avatar-drive/region: {{ .Values.region }}
{{- end -}}

{{- define "avatar-drive.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "avatar-drive.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/* The Secret holding AVATAR_DRIVE_SIGNING_KEY and AVATAR_DRIVE_APPS. */}}
{{- define "avatar-drive.credentialsSecret" -}}
{{- default (printf "%s-credentials" (include "avatar-drive.fullname" .)) .Values.credentials.existingSecret -}}
{{- end -}}

{{- define "avatar-drive.scheme" -}}
{{- if .Values.tls.enabled -}}HTTPS{{- else -}}HTTP{{- end -}}
{{- end -}}

{{/* The shared store: the bundled Redis, or the external one (Sentinels win over a URL). */}}
{{- define "avatar-drive.redisEnv" -}}
{{- if .Values.redis.enabled }}
- name: REDIS_URL
  value: {{ printf "redis://%s-redis:6379" .Release.Name | quote }}
{{- else if .Values.externalRedis.sentinels }}
- name: REDIS_SENTINELS
  value: {{ .Values.externalRedis.sentinels | quote }}
- name: REDIS_MASTER_NAME
  value: {{ .Values.externalRedis.masterName | quote }}
{{- else if .Values.externalRedis.url }}
- name: REDIS_URL
  value: {{ .Values.externalRedis.url | quote }}
{{- else }}
{{- fail "avatar-drive: the nodes need a shared store: set redis.enabled=true, externalRedis.sentinels or externalRedis.url" }}
{{- end }}
{{- if and (not .Values.redis.enabled) .Values.externalRedis.existingSecret }}
- name: REDIS_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ .Values.externalRedis.existingSecret }}
      key: REDIS_PASSWORD
- name: REDIS_SENTINEL_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ .Values.externalRedis.existingSecret }}
      key: REDIS_SENTINEL_PASSWORD
      optional: true
{{- end }}
{{- end -}}

{{/* Where uploaded avatar files live: the shared claim, or (one fixed pod only) an emptyDir. */}}
{{- define "avatar-drive.uploadsClaim" -}}
{{- .Values.uploads.persistence.existingClaim | default (printf "%s-uploads" (include "avatar-drive.fullname" .)) -}}
{{- end -}}

{{- define "avatar-drive.uploadsVolume" -}}
{{- if .Values.uploads.persistence.enabled }}
persistentVolumeClaim:
  claimName: {{ include "avatar-drive.uploadsClaim" . }}
{{- else if and (eq (int .Values.replicaCount) 1) (not .Values.autoscaling.enabled) }}
emptyDir: {}
{{- else }}
{{- fail "avatar-drive: uploads.persistence.enabled=false keeps each pod's uploads to itself; with more than one pod every node must read every upload. Give uploads.persistence a ReadWriteMany claim, or run one pod (replicaCount=1, autoscaling.enabled=false)" }}
{{- end }}
{{- end -}}

{{/* The token server: its own name label, so the service's Service never selects its pods. */}}
{{- define "avatar-drive.tokenServer.fullname" -}}
{{- printf "%s-token-server" (include "avatar-drive.fullname" .) | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "avatar-drive.tokenServer.selectorLabels" -}}
app.kubernetes.io/name: {{ printf "%s-token-server" (include "avatar-drive.name" .) | trunc 63 | trimSuffix "-" }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: token-server
{{- end -}}

{{- define "avatar-drive.tokenServer.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{ include "avatar-drive.tokenServer.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
avatar-drive/region: {{ .Values.region }}
{{- end -}}

{{- define "avatar-drive.tokenServer.secret" -}}
{{- default (printf "%s-credentials" (include "avatar-drive.tokenServer.fullname" .)) .Values.tokenServer.existingSecret -}}
{{- end -}}

{{/* The console API the token server mints from: given, or this release's Service. */}}
{{- define "avatar-drive.tokenServer.consoleUrl" -}}
{{- if .Values.tokenServer.consoleUrl -}}
{{- .Values.tokenServer.consoleUrl -}}
{{- else if .Values.tls.enabled -}}
{{- printf "https://%s.%s.svc:443" (include "avatar-drive.fullname" .) .Release.Namespace -}}
{{- else -}}
{{- printf "http://%s.%s.svc:%v" (include "avatar-drive.fullname" .) .Release.Namespace .Values.service.port -}}
{{- end -}}
{{- end -}}
