{{/* Names and labels. */}}
{{- define "crewline.name" -}}
{{- .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "crewline.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "crewline.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: {{ include "crewline.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{/* Selector labels of one component: (dict "context" $ "component" "api"). */}}
{{- define "crewline.selectorLabels" -}}
app.kubernetes.io/name: {{ include "crewline.name" .context }}
app.kubernetes.io/instance: {{ .context.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "crewline.image" -}}
{{ printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) | quote }}
{{- end -}}

{{/* The Secret holding DATABASE_URL, JWT_SECRET and ENCRYPTION_KEY: the chart's own, or existingSecret. */}}
{{- define "crewline.secretName" -}}
{{- default (printf "%s-secrets" (include "crewline.fullname" .)) .Values.existingSecret -}}
{{- end -}}

{{/* What every process's environment has: the three secrets from the Secret, then the chart's settings. */}}
{{- define "crewline.env" -}}
- name: DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ include "crewline.secretName" . }}
      key: DATABASE_URL
- name: JWT_SECRET
  valueFrom:
    secretKeyRef:
      name: {{ include "crewline.secretName" . }}
      key: JWT_SECRET
- name: ENCRYPTION_KEY
  valueFrom:
    secretKeyRef:
      name: {{ include "crewline.secretName" . }}
      key: ENCRYPTION_KEY
- name: DATA_DIR
  value: /data
{{- with .Values.publicUrl }}
- name: PUBLIC_URL
  value: {{ . | quote }}
{{- end }}
{{- range $name, $value := .Values.env }}
- name: {{ $name }}
  value: {{ $value | toString | quote }}
{{- end }}
{{- end -}}

{{/* Non-root (the image's `node` user), no privilege escalation, no capabilities, a read-only root. */}}
{{- define "crewline.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: 1000
runAsGroup: 1000
fsGroup: 1000
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{- define "crewline.securityContext" -}}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
runAsNonRoot: true
capabilities:
  drop: [ALL]
{{- end -}}

{{/* Writable places under the read-only root: /tmp (tsx's compile cache) and DATA_DIR. */}}
{{- define "crewline.volumes" -}}
- name: tmp
  emptyDir: {}
- name: files
{{- if .Values.files.existingClaim }}
  persistentVolumeClaim:
    claimName: {{ .Values.files.existingClaim }}
{{- else }}
  emptyDir: {}
{{- end }}
{{- end -}}

{{- define "crewline.volumeMounts" -}}
- name: tmp
  mountPath: /tmp
- name: files
  mountPath: /data
{{- end -}}
