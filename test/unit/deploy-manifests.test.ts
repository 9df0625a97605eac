import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { Deployment, type IDeployment } from "kubernetes-models/apps/v1";
import { HorizontalPodAutoscaler, type IHorizontalPodAutoscaler } from "kubernetes-models/autoscaling/v2";
import {
	NetworkPolicy,
	type INetworkPolicy,
	type INetworkPolicyPeer,
	type INetworkPolicyPort,
} from "kubernetes-models/networking.k8s.io/v1";
import { PodDisruptionBudget, type IPodDisruptionBudget } from "kubernetes-models/policy/v1";
import {
	ConfigMap,
	Namespace,
	Secret,
	Service,
	type IConfigMap,
	type IContainer,
	type IProbe,
	type ISecret,
	type IService,
} from "kubernetes-models/v1";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { SERVICE_SCHEMAS, selectServices } from "../../services/registry.ts";
import { loadConfig } from "../../shared/config.ts";

// The Kubernetes manifests (deploy/k8s), checked without a cluster: every document against the
// API schemas (kubernetes-models), then what those schemas cannot know: that each service has
// its Deployment, probes, resources and secrets, that references resolve, and that the
// configuration they add up to is one shared/config.ts accepts in production.
// The schemas accept unknown fields (a misspelt "livenessprobe" passes), so the fields that
// matter are asserted by name below.

const ROOT = resolve(import.meta.dirname, "../..");
const K8S = join(ROOT, "deploy/k8s");
const NAMESPACE = "oms";
const OPS_PORT = 9464;
const SEVEN = Object.keys(SERVICE_SCHEMAS);

type Doc = {
	apiVersion?: string;
	kind?: string;
	metadata?: { name?: string; namespace?: string; labels?: Record<string, string> };
} & Record<string, any>;
const MODELS: Record<string, new (data: any) => { validate(): void }> = {
	"v1/Namespace": Namespace,
	"v1/ConfigMap": ConfigMap,
	"v1/Secret": Secret,
	"v1/Service": Service,
	"apps/v1/Deployment": Deployment,
	"autoscaling/v2/HorizontalPodAutoscaler": HorizontalPodAutoscaler,
	"policy/v1/PodDisruptionBudget": PodDisruptionBudget,
	"networking.k8s.io/v1/NetworkPolicy": NetworkPolicy,
};

function readYaml(file: string): Doc[] {
	return parseAllDocuments(readFileSync(join(K8S, file), "utf8")).map((d) => {
		if (d.errors.length) throw new Error(`${file}: ${d.errors.map((e) => e.message).join("; ")}`);
		return d.toJS() as Doc;
	});
}

const manifestFiles = readdirSync(K8S).filter((f) => /\.ya?ml$/.test(f) && f !== "kustomization.yaml");
const objects = manifestFiles.flatMap((file) => readYaml(file).map((doc) => ({ file, doc })));
const docs = objects.map((o) => o.doc);
const ofKind = <T>(kind: string) => docs.filter((d) => d.kind === kind) as unknown as T[];
const deployments = ofKind<IDeployment>("Deployment");
const hpas = ofKind<IHorizontalPodAutoscaler>("HorizontalPodAutoscaler");
const services = ofKind<IService>("Service");
const pdbs = ofKind<IPodDisruptionBudget>("PodDisruptionBudget");
const configMaps = ofKind<IConfigMap>("ConfigMap");
const secrets = ofKind<ISecret>("Secret");
const kustomization = readYaml("kustomization.yaml")[0]!;

const containerOf = (d: IDeployment): IContainer => {
	const cs = d.spec?.template.spec?.containers ?? [];
	expect(cs, `${d.metadata?.name}: one container`).toHaveLength(1);
	return cs[0]!;
};
const envValue = (c: IContainer, name: string) => c.env?.find((e) => e.name === name)?.value;
const deploymentRunning = (service: string) => deployments.find((d) => envValue(containerOf(d), "SERVICES") === service);
const matches = (selector: Record<string, string> | undefined, labels: Record<string, string> | undefined) =>
	!!selector && Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels?.[k] === v);
const secretData = (s: ISecret): Record<string, string> => ({
	...Object.fromEntries(Object.entries(s.data ?? {}).map(([k, v]) => [k, Buffer.from(v, "base64").toString("utf8")])),
	...s.stringData,
});

/** The environment a Deployment's container starts with: ConfigMap, literals, Secret keys. */
function environmentOf(d: IDeployment, secretOverrides: Record<string, string> = {}): Record<string, string> {
	const c = containerOf(d);
	const env: Record<string, string> = {};
	for (const from of c.envFrom ?? []) {
		const cm = configMaps.find((m) => m.metadata?.name === from.configMapRef?.name);
		Object.assign(env, cm?.data);
	}
	for (const e of c.env ?? []) {
		const ref = e.valueFrom?.secretKeyRef;
		if (e.value !== undefined) env[e.name] = e.value;
		else if (ref) {
			const s = secrets.find((x) => x.metadata?.name === ref.name);
			env[e.name] = secretOverrides[ref.key] ?? (s ? secretData(s)[ref.key] : undefined) ?? "";
		} else if (e.valueFrom?.fieldRef) env[e.name] = `${d.metadata?.name}-7d9f8-abcde`; // a pod name
	}
	return env;
}

/** Environment variables the code reads outside shared/config.ts (process.env.X, env.X). */
function variablesReadByCode(): Set<string> {
	const found = new Set<string>();
	const walk = (dir: string) => {
		for (const e of readdirSync(dir, { withFileTypes: true })) {
			const p = join(dir, e.name);
			if (e.isDirectory()) walk(p);
			else if (p.endsWith(".ts")) for (const m of readFileSync(p, "utf8").matchAll(/\benv\.([A-Z][A-Z0-9_]*)\b/g)) found.add(m[1]!);
		}
	};
	walk(join(ROOT, "services"));
	walk(join(ROOT, "shared"));
	return found;
}

/** The Secret's placeholders as an operator replaces them. */
const REAL_SECRETS = { CURSOR_SECRET: "a-real-secret-of-at-least-32-characters!", NATS_PASSWORD: "p3f9a0b7c1d2e4f5a6b7c8d9e0f1a2b3c" };

describe("deploy/k8s manifests", () => {
	it("every document is a known Kubernetes object that passes its API schema", () => {
		expect(objects.length).toBeGreaterThan(10);
		for (const { file, doc } of objects) {
			const Model = MODELS[`${doc.apiVersion}/${doc.kind}`];
			expect(Model, `${file}: ${doc.apiVersion} ${doc.kind} has no model here (add it to MODELS)`).toBeDefined();
			expect(() => new Model!(doc).validate(), `${file}: ${doc.kind} ${doc.metadata?.name}`).not.toThrow();
		}
	});

	it("the schema check catches a broken manifest (it is not a no-op)", () => {
		const broken = structuredClone(deployments[0]!) as any;
		broken.spec.template.spec.containers[0].ports[0].containerPort = "ops";
		expect(() => new Deployment(broken).validate()).toThrow(/containerPort/);
	});

	it("everything lives in the one namespace, which kustomization.yaml uses too", () => {
		expect(ofKind<Doc>("Namespace").map((n) => n.metadata?.name)).toEqual([NAMESPACE]);
		expect(kustomization.namespace).toBe(NAMESPACE);
		for (const d of docs.filter((x) => x.kind !== "Namespace"))
			expect(d.metadata?.namespace, `${d.kind} ${d.metadata?.name}`).toBe(NAMESPACE);
	});

	it("kustomization.yaml lists every manifest except the placeholder Secret", () => {
		const listed = [...(kustomization.resources as string[])].sort();
		expect(listed).toEqual(manifestFiles.filter((f) => f !== "secret.example.yaml").sort());
		expect(secrets.map((s) => s.metadata?.name)).toEqual(["oms-secrets"]);
	});

	it("each of the seven services has exactly one Deployment running only it, all from the one image", () => {
		expect(SEVEN).toHaveLength(7);
		expect(deployments).toHaveLength(7);
		for (const name of SEVEN) {
			const d = deploymentRunning(name);
			expect(d, `no Deployment sets SERVICES=${name}`).toBeDefined();
			expect(d!.metadata?.name).toBe(name);
			expect(selectServices(envValue(containerOf(d!), "SERVICES")!)).toEqual([SERVICE_SCHEMAS[name]]);
		}
		const images = new Set(deployments.map((d) => containerOf(d).image));
		expect([...images]).toEqual(["oms"]);
		expect((kustomization.images as Array<{ name: string }>).map((i) => i.name)).toEqual(["oms"]);
	});

	it("each Deployment's selector picks its own pod template and no other Deployment's", () => {
		for (const d of deployments) {
			const sel = d.spec?.selector.matchLabels;
			expect(matches(sel, d.spec?.template.metadata?.labels), d.metadata?.name).toBe(true);
			for (const other of deployments.filter((o) => o !== d)) expect(matches(sel, other.spec?.template.metadata?.labels)).toBe(false);
		}
	});

	describe.each(SEVEN)("%s", (name) => {
		const d = () => deploymentRunning(name)!;
		const c = () => containerOf(d());
		const portNumber = (probe: IProbe | undefined) => {
			const port = probe?.httpGet?.port;
			return typeof port === "number" ? port : c().ports?.find((p) => p.name === port)?.containerPort;
		};

		it("has HTTP liveness, readiness and startup probes on ports the container declares", () => {
			const { livenessProbe, readinessProbe, startupProbe } = c();
			const api = name === "gateway";
			// The gateway's own endpoints on PORT; every other process's on its ops port.
			const expected = api ? 3000 : OPS_PORT;
			expect(livenessProbe?.httpGet?.path).toBe("/healthz");
			expect(readinessProbe?.httpGet?.path).toBe("/readyz");
			expect(startupProbe?.httpGet?.path).toBe("/healthz");
			for (const p of [livenessProbe, readinessProbe, startupProbe]) expect(portNumber(p)).toBe(expected);
			if (api) expect(Number(envValue(c(), "PORT"))).toBe(3000);
		});

		it("serves the ops port under the name and number OPS_PORT and the scrape annotations say", () => {
			const ops = c().ports?.find((p) => p.name === "ops");
			expect(ops?.containerPort).toBe(OPS_PORT);
			expect(Number(envValue(c(), "OPS_PORT"))).toBe(OPS_PORT);
			expect(d().spec?.template.metadata?.annotations).toMatchObject({
				"prometheus.io/scrape": "true",
				"prometheus.io/port": String(OPS_PORT),
				"prometheus.io/path": "/metrics",
			});
		});

		it("requests CPU and memory and caps memory", () => {
			const r = c().resources;
			expect(r?.requests?.cpu).toBeTruthy();
			expect(r?.requests?.memory).toBeTruthy();
			expect(r?.limits?.memory).toBeTruthy();
		});

		it("runs as non-root on a read-only root filesystem with a writable /tmp", () => {
			const pod = d().spec!.template.spec!;
			expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000, seccompProfile: { type: "RuntimeDefault" } });
			expect(c().securityContext).toMatchObject({
				readOnlyRootFilesystem: true,
				allowPrivilegeEscalation: false,
				capabilities: { drop: ["ALL"] },
			});
			const tmp = c().volumeMounts?.find((m) => m.mountPath === "/tmp");
			expect(pod.volumes?.find((v) => v.name === tmp?.name)?.emptyDir).toBeDefined();
		});

		it("gives SIGTERM's drain (about 30 s) time before the kill", () => {
			expect(d().spec!.template.spec!.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(35);
		});

		it("starts with a configuration shared/config.ts accepts in production once the placeholders are replaced", () => {
			const env = environmentOf(d(), REAL_SECRETS);
			const c = loadConfig(env);
			expect(c.NODE_ENV).toBe("production");
			expect(c.SERVICES).toBe(name);
			expect(c.TRANSPORTER).toMatch(/^nats:\/\//);
			expect(c.NODE_ID).not.toBe("");
			expect(c.nats).toMatchObject({ user: "oms", pass: REAL_SECRETS.NATS_PASSWORD });
		});

		it("refuses to start with the placeholder Secret as it is", () => {
			expect(() => loadConfig(environmentOf(d()))).toThrow(/CURSOR_SECRET/);
			expect(() => loadConfig(environmentOf(d(), { CURSOR_SECRET: REAL_SECRETS.CURSOR_SECRET }))).toThrow(/NATS_PASSWORD of at least 16/);
		});

		it("connects to NATS with the user and password of the Secret, and refuses to start without them", () => {
			for (const key of ["NATS_USER", "NATS_PASSWORD"]) {
				const e = c().env?.find((x) => x.name === key);
				expect(e?.valueFrom?.secretKeyRef, `${key} from the Secret`).toMatchObject({ name: "oms-secrets", key });
			}
			const { NATS_USER: _u, NATS_PASSWORD: _p, ...without } = environmentOf(d(), REAL_SECRETS);
			expect(() => loadConfig(without)).toThrow(/NATS_USER and NATS_PASSWORD/);
			expect(() => loadConfig({ ...without, NATS_ALLOW_UNAUTHENTICATED: "true" })).not.toThrow();
		});
	});

	it("the services that own data get MONGO_URL, those with queues or rate limits REDIS_URL, from the Secret", () => {
		const secretKeysOf = (name: string) =>
			(containerOf(deploymentRunning(name)!).env ?? []).filter((e) => e.valueFrom?.secretKeyRef).map((e) => e.name);
		for (const name of ["auth-keys", "opportunities", "catalog", "matching", "notifications"])
			expect(secretKeysOf(name), name).toContain("MONGO_URL");
		for (const name of ["gateway", "opportunities", "catalog", "matching", "notifications", "ask"])
			expect(secretKeysOf(name), name).toContain("REDIS_URL");
		expect(secretKeysOf("notifications")).toContain("SMTP_URL");
		expect(secretKeysOf("ask")).toContain("LLM_API_KEY");
		// The model key goes only where it is used.
		expect(SEVEN.filter((n) => secretKeysOf(n).includes("LLM_API_KEY"))).toEqual(["ask"]);
	});

	it("every ConfigMap and Secret a container refers to exists and has the key", () => {
		for (const d of deployments) {
			const c = containerOf(d);
			for (const from of c.envFrom ?? []) {
				if (from.configMapRef)
					expect(
						configMaps.map((m) => m.metadata?.name),
						d.metadata?.name,
					).toContain(from.configMapRef.name);
				if (from.secretRef)
					expect(
						secrets.map((s) => s.metadata?.name),
						d.metadata?.name,
					).toContain(from.secretRef.name);
			}
			for (const e of c.env ?? []) {
				const cmRef = e.valueFrom?.configMapKeyRef;
				const sRef = e.valueFrom?.secretKeyRef;
				if (cmRef)
					expect(
						Object.keys(configMaps.find((m) => m.metadata?.name === cmRef.name)?.data ?? {}),
						`${d.metadata?.name} ${e.name}`,
					).toContain(cmRef.key);
				if (sRef) {
					const s = secrets.find((x) => x.metadata?.name === sRef.name);
					expect(s, `${d.metadata?.name} ${e.name}: Secret ${sRef.name}`).toBeDefined();
					expect(Object.keys(secretData(s!)), `${d.metadata?.name} ${e.name}`).toContain(sRef.key);
				}
			}
		}
	});

	it("the ConfigMap names the NATS servers without credentials (they are in the Secret)", () => {
		const transporter = configMaps.find((m) => m.metadata?.name === "oms-config")?.data?.TRANSPORTER ?? "";
		expect(transporter).toMatch(/^(nats|tls):\/\//);
		expect(transporter).not.toMatch(/@/);
		expect(Object.keys(secretData(secrets[0]!))).toEqual(expect.arrayContaining(["NATS_USER", "NATS_PASSWORD"]));
	});

	it("every variable the manifests set is one the code reads", () => {
		const known = new Set([...Object.keys(loadConfig({})), ...variablesReadByCode()]);
		// Read by Node itself.
		const runtime = new Set(["NODE_OPTIONS"]);
		for (const m of configMaps)
			for (const key of Object.keys(m.data ?? {})) expect(known.has(key), `ConfigMap key ${key} is read by nothing`).toBe(true);
		for (const s of secrets)
			for (const key of Object.keys(secretData(s))) expect(known.has(key), `Secret key ${key} is read by nothing`).toBe(true);
		for (const d of deployments)
			for (const e of containerOf(d).env ?? [])
				expect(known.has(e.name) || runtime.has(e.name), `${d.metadata?.name}: ${e.name} is read by nothing`).toBe(true);
	});

	it("the autoscalers target the gateway and matching Deployments, which leave the replica count to them", () => {
		expect(hpas.map((h) => h.spec?.scaleTargetRef.name).sort()).toEqual(["gateway", "matching"]);
		for (const h of hpas) {
			const ref = h.spec!.scaleTargetRef;
			expect(ref).toMatchObject({ apiVersion: "apps/v1", kind: "Deployment" });
			const target = deployments.find((d) => d.metadata?.name === ref.name);
			expect(target, `HPA ${h.metadata?.name} targets a missing Deployment`).toBeDefined();
			expect(target!.spec?.replicas, `${ref.name}: a fixed replica count would fight the HPA on every apply`).toBeUndefined();
			expect(h.spec!.minReplicas).toBeGreaterThanOrEqual(2);
			expect(h.spec!.maxReplicas).toBeGreaterThan(h.spec!.minReplicas!);
			// CPU utilization is measured against the request.
			expect(containerOf(target!).resources?.requests?.cpu).toBeTruthy();
		}
	});

	it("the gateway Service reaches the gateway pods' API port, and the ops Service every pod's ops port", () => {
		const gateway = services.find((s) => s.metadata?.name === "gateway")!;
		const gatewayPod = deploymentRunning("gateway")!.spec!.template;
		expect(matches(gateway.spec?.selector, gatewayPod.metadata?.labels)).toBe(true);
		for (const other of deployments.filter((d) => d.metadata?.name !== "gateway"))
			expect(matches(gateway.spec?.selector, other.spec?.template.metadata?.labels)).toBe(false);
		const target = gateway.spec?.ports?.[0]?.targetPort;
		expect(containerOf(deploymentRunning("gateway")!).ports?.find((p) => p.name === target)?.containerPort).toBe(3000);

		const ops = services.find((s) => s.metadata?.name === "oms-ops")!;
		for (const d of deployments) expect(matches(ops.spec?.selector, d.spec?.template.metadata?.labels), d.metadata?.name).toBe(true);
		expect(ops.spec?.ports?.[0]?.targetPort).toBe("ops");
	});

	it("each disruption budget selects the pods of a Deployment", () => {
		expect(pdbs.length).toBeGreaterThan(0);
		for (const p of pdbs)
			expect(
				deployments.some((d) => matches(p.spec?.selector?.matchLabels, d.spec?.template.metadata?.labels)),
				p.metadata?.name,
			).toBe(true);
	});
});

// --- NetworkPolicies: who reaches what, evaluated the way Kubernetes does for ingress --------

type LabelSelector = NonNullable<INetworkPolicy["spec"]>["podSelector"];
/** A pod as NetworkPolicies see it: its namespace, its labels and its named ports. */
interface Pod {
	name: string;
	namespace: string;
	labels: Record<string, string>;
	ports?: Record<string, number>;
}

/** Whether a label selector selects these labels (an empty selector selects everything). */
function selects(sel: LabelSelector | undefined, labels: Record<string, string>): boolean {
	if (!sel) return false;
	const byLabel = Object.entries(sel.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
	const byExpression = (sel.matchExpressions ?? []).every((e) => {
		const has = Object.hasOwn(labels, e.key);
		if (e.operator === "In") return has && (e.values ?? []).includes(labels[e.key]!);
		if (e.operator === "NotIn") return !has || !(e.values ?? []).includes(labels[e.key]!);
		if (e.operator === "Exists") return has;
		if (e.operator === "DoesNotExist") return !has;
		throw new Error(`unknown selector operator ${e.operator}`);
	});
	return byLabel && byExpression;
}

const namespaceLabels = (ns: string) => ({ "kubernetes.io/metadata.name": ns });

function peerAdmits(peer: INetworkPolicyPeer, from: Pod, policyNamespace: string): boolean {
	if (peer.ipBlock) return false; // addresses outside the cluster; no pod here is one
	const nsOk = peer.namespaceSelector
		? selects(peer.namespaceSelector, namespaceLabels(from.namespace))
		: from.namespace === policyNamespace;
	const podOk = peer.podSelector ? selects(peer.podSelector, from.labels) : true;
	return nsOk && podOk;
}

function portAdmits(ports: INetworkPolicyPort[] | undefined, port: number, to: Pod): boolean {
	if (!ports?.length) return true;
	const named = (p: INetworkPolicyPort) => typeof p.port === "string" && to.ports?.[p.port] === port;
	return ports.some((p) => (p.protocol ?? "TCP") === "TCP" && (p.port === undefined || p.port === port || named(p)));
}

/** Kubernetes' ingress rule: a pod no policy selects takes anything; a selected one only what some policy allows. */
function admits(policies: INetworkPolicy[], from: Pod, to: Pod, port: number): boolean {
	const isolating = policies.filter(
		(p) =>
			p.metadata?.namespace === to.namespace &&
			(p.spec?.policyTypes ?? ["Ingress"]).includes("Ingress") &&
			selects(p.spec?.podSelector, to.labels),
	);
	if (!isolating.length) return true;
	const fromAdmitted = (peers: INetworkPolicyPeer[] | undefined, ns: string) =>
		!peers?.length || peers.some((peer) => peerAdmits(peer, from, ns));
	return isolating.some((p) =>
		(p.spec?.ingress ?? []).some((rule) => portAdmits(rule.ports, port, to) && fromAdmitted(rule.from, p.metadata!.namespace!)),
	);
}

describe("deploy/k8s NetworkPolicies", () => {
	const BACKING = join(K8S, "backing-access");
	const backingFiles = readdirSync(BACKING).filter((f) => /\.ya?ml$/.test(f) && f !== "kustomization.yaml");
	const backingDocs = backingFiles.flatMap((f) => readYaml(join("backing-access", f)));
	const policies = [
		...ofKind<INetworkPolicy>("NetworkPolicy"),
		...(backingDocs.filter((d) => d.kind === "NetworkPolicy") as unknown as INetworkPolicy[]),
	];

	// The namespaces the Secret's and ConfigMap's URLs point at (hosts ...<service>.<namespace>.svc.cluster.local).
	const namespaceOf = (url: string) => {
		const labels = new URL(url.split(",")[0]!.replace(/^(mongodb|redis|nats|tls):/, "http:")).hostname.split(".");
		return labels[labels.indexOf("svc") - 1]!;
	};
	const secret = secretData(secrets[0]!);
	const natsNs = namespaceOf(configMaps[0]!.data!.TRANSPORTER!);
	const mongoNs = namespaceOf(secret.MONGO_URL!);
	const redisNs = namespaceOf(secret.REDIS_URL!);

	const appPods: Pod[] = deployments.map((d) => ({
		name: d.metadata!.name!,
		namespace: NAMESPACE,
		labels: d.spec!.template.metadata!.labels!,
		ports: Object.fromEntries((containerOf(d).ports ?? []).filter((p) => p.name).map((p) => [p.name!, p.containerPort])),
	}));
	const app = (name: string) => appPods.find((p) => p.name === name)!;
	// What the NATS chart (release nats), a Bitnami-style MongoDB and Redis, the ingress
	// controller and Prometheus run as; and two pods that must not get in.
	const natsLabels = { "app.kubernetes.io/name": "nats", "app.kubernetes.io/instance": "nats", "app.kubernetes.io/component": "nats" };
	const natsServer: Pod = { name: "nats-0", namespace: natsNs, labels: natsLabels };
	const natsPeer: Pod = { ...natsServer, name: "nats-1" };
	const mongo: Pod = { name: "mongo-0", namespace: mongoNs, labels: { "app.kubernetes.io/name": "mongodb" } };
	const redis: Pod = { name: "redis-primary", namespace: redisNs, labels: { "app.kubernetes.io/name": "redis" } };
	const ingress: Pod = { name: "ingress-controller", namespace: "ingress-nginx", labels: { "app.kubernetes.io/name": "ingress-nginx" } };
	const prometheus: Pod = { name: "prometheus", namespace: "monitoring", labels: { "app.kubernetes.io/name": "prometheus" } };
	const stranger: Pod = { name: "stranger", namespace: "default", labels: { app: "something-else" } };
	// A pod someone starts in the application's namespace (kubectl run): not one of the services.
	const intruder: Pod = { name: "debug", namespace: NAMESPACE, labels: { run: "debug" } };
	const outsiders = [stranger, intruder, ingress, prometheus];

	const getsSecret = (d: IDeployment, key: string) => (containerOf(d).env ?? []).some((e) => e.name === key && e.valueFrom?.secretKeyRef);
	const usersOf = (key: string) => deployments.filter((d) => getsSecret(d, key)).map((d) => d.metadata!.name!);

	it("pass the NetworkPolicy API schema and live where the pods they protect live", () => {
		expect(policies.length).toBeGreaterThanOrEqual(5);
		for (const p of policies) expect(() => new NetworkPolicy(p).validate(), p.metadata?.name).not.toThrow();
		expect(new Set(policies.map((p) => p.metadata?.namespace))).toEqual(new Set([NAMESPACE, natsNs, mongoNs, redisNs]));
		expect([...(readYaml("backing-access/kustomization.yaml")[0]!.resources as string[])].sort()).toEqual([...backingFiles].sort());
	});

	it("let every service reach NATS, and nothing else but the NATS servers themselves", () => {
		for (const pod of appPods) expect(admits(policies, pod, natsServer, 4222), pod.name).toBe(true);
		for (const pod of outsiders) expect(admits(policies, pod, natsServer, 4222), pod.name).toBe(false);
		expect(admits(policies, natsPeer, natsServer, 6222)).toBe(true);
		for (const pod of [...appPods, stranger]) expect(admits(policies, pod, natsServer, 6222), pod.name).toBe(false);
	});

	it("let exactly the services that get MONGO_URL reach MongoDB, and those that get REDIS_URL reach Redis", () => {
		const reaching = (to: Pod, port: number) =>
			appPods
				.filter((p) => admits(policies, p, to, port))
				.map((p) => p.name)
				.sort();
		expect(reaching(mongo, 27017)).toEqual(usersOf("MONGO_URL").sort());
		expect(reaching(redis, 6379)).toEqual(usersOf("REDIS_URL").sort());
		for (const pod of outsiders) {
			expect(admits(policies, pod, mongo, 27017), pod.name).toBe(false);
			expect(admits(policies, pod, redis, 6379), pod.name).toBe(false);
		}
		// Replication between their own members.
		expect(admits(policies, { ...mongo, name: "mongo-1" }, mongo, 27017)).toBe(true);
		expect(admits(policies, { ...redis, name: "redis-replica" }, redis, 6379)).toBe(true);
	});

	it("let the ingress controller reach the gateway's API port and nothing else of the application", () => {
		expect(admits(policies, ingress, app("gateway"), 3000)).toBe(true);
		for (const pod of [stranger, intruder, prometheus, ...appPods])
			expect(admits(policies, pod, app("gateway"), 3000), pod.name).toBe(false);
		for (const pod of appPods.filter((p) => p.name !== "gateway")) {
			for (const port of Object.values(pod.ports ?? {})) expect(admits(policies, ingress, pod, port), `${pod.name}:${port}`).toBe(false);
		}
		// The services never call each other directly: one service's pod cannot reach another's.
		for (const from of appPods)
			for (const to of appPods) if (from !== to) expect(admits(policies, from, to, OPS_PORT), `${from.name} -> ${to.name}`).toBe(false);
	});

	it("let Prometheus read every pod's ops port", () => {
		for (const pod of appPods) expect(admits(policies, prometheus, pod, OPS_PORT), pod.name).toBe(true);
		for (const pod of appPods) expect(admits(policies, stranger, pod, OPS_PORT), pod.name).toBe(false);
	});

	it("the evaluation is not a no-op: without the policies everyone gets in", () => {
		expect(admits([], stranger, natsServer, 4222)).toBe(true);
		expect(admits([], stranger, mongo, 27017)).toBe(true);
		expect(admits([], stranger, app("gateway"), 3000)).toBe(true);
	});
});

describe("deploy/Dockerfile", () => {
	const dockerfile = readFileSync(join(ROOT, "deploy/Dockerfile"), "utf8");
	const runtime = dockerfile.slice(dockerfile.lastIndexOf("\nFROM ") + 1);

	it("runs on Node 24 slim, production dependencies only, as a numeric non-root user", () => {
		expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:24-slim$/m);
		expect(runtime).toMatch(/^FROM \$\{NODE_IMAGE\} AS runtime/);
		expect(runtime).toMatch(/npm ci --omit=dev/);
		expect(runtime).toMatch(/^USER 1000:1000$/m);
		expect(runtime).toMatch(/^EXPOSE 3000 9464$/m);
	});

	it("has a HEALTHCHECK whose script is copied into the image", () => {
		expect(runtime).toMatch(/HEALTHCHECK [^\n]*\\\n\s+CMD \["node", "deploy\/healthcheck\.mjs"\]/);
		expect(runtime).toMatch(/^COPY deploy\/healthcheck\.mjs \.\/deploy\/healthcheck\.mjs$/m);
	});
});

describe("deploy/healthcheck.mjs (the image's HEALTHCHECK)", () => {
	const run = promisify(execFile);
	let healthy: Server;
	let unhealthy: Server;
	const portOf = (s: Server) => String((s.address() as AddressInfo).port);
	const listen = (status: number) =>
		new Promise<Server>((ok) => {
			const s = createServer((req, res) => res.writeHead(req.url === "/healthz" ? status : 404).end());
			s.listen(0, "127.0.0.1", () => ok(s));
		});
	beforeAll(async () => {
		healthy = await listen(200);
		unhealthy = await listen(503);
	});
	afterAll(() => {
		healthy.close();
		unhealthy.close();
	});
	/** The script's exit code with only these variables set. */
	const check = (env: Record<string, string>) =>
		run(process.execPath, [join(ROOT, "deploy/healthcheck.mjs")], { env: { PATH: process.env.PATH ?? "", ...env }, timeout: 10_000 }).then(
			() => 0,
			(e: { code?: number }) => e.code ?? -1,
		);

	it("asks a worker's ops port", async () => {
		expect(await check({ SERVICES: "matching", OPS_PORT: portOf(healthy), PORT: portOf(unhealthy) })).toBe(0);
		expect(await check({ SERVICES: "matching", OPS_PORT: portOf(unhealthy), PORT: portOf(healthy) })).toBe(1);
	});

	it("asks the API port of a process that runs the gateway", async () => {
		expect(await check({ SERVICES: "gateway", PORT: portOf(healthy), OPS_PORT: portOf(unhealthy) })).toBe(0);
		expect(await check({ SERVICES: "all", PORT: portOf(unhealthy), OPS_PORT: portOf(healthy) })).toBe(1);
	});

	it("is unhealthy when nothing answers", async () => {
		const closed = await listen(200);
		const port = portOf(closed);
		await new Promise((ok) => closed.close(ok));
		expect(await check({ SERVICES: "ask", OPS_PORT: port })).toBe(1);
	});
});
