import {
	CompanyProfile,
	CreatePartnerBody,
	CreateProductBody,
	ImportProductsBody,
	ImportResult,
	Partner,
	PartnerList,
	Product,
	ProductList,
	ProductListQuery,
	UpdatePartnerBody,
	UpdateProductBody,
	UpdateProfileBody,
} from "./catalog.ts";
import { IdPath } from "./common.ts";
import { defineOperation } from "./operation.ts";

// Manufacturer partners, products, bulk import and the company profile: the catalog service.
// Literal paths (/products/partners, /products/import) come before /products/{id}.

export const listPartners = defineOperation({
	operationId: "listPartners",
	method: "GET",
	path: "/products/partners",
	action: "catalog.listPartners",
	access: "profile:read",
	tag: "Partners",
	summary: "List the company's manufacturer partners with their product counts",
	response: PartnerList,
});

export const createPartner = defineOperation({
	operationId: "createPartner",
	method: "POST",
	path: "/products/partners",
	action: "catalog.createPartner",
	access: "profile:write",
	tag: "Partners",
	summary: "Add (or re-authorize) a manufacturer partner",
	description:
		"Authorizes the partner and adds its name to the company profile's manufacturer_partners list. " +
		"Re-posting a name already on file (compared case- and space-insensitively: " +
		"`Net App` and ` netapp` are one partner) re-authorizes that partner, answers it with its id and original name " +
		"(201 as well) and does not reactivate its discontinued products; " +
		"relationship and source_url are updated only when sent.",
	body: CreatePartnerBody,
	response: Partner,
	status: 201,
	errors: ["validation_failed"],
});

export const updatePartner = defineOperation({
	operationId: "updatePartner",
	method: "PATCH",
	path: "/products/partners/{id}",
	action: "catalog.updatePartner",
	access: "profile:write",
	tag: "Partners",
	summary: "De-authorize or re-authorize a partner, or change its relationship",
	description:
		"Setting authorized to false takes every product of the partner out of matching and makes creating a product " +
		"under it answer partner_not_authorized; setting it back to true puts its active products back into matching " +
		"(discontinued products stay discontinued). Absent fields are left alone; relationship null clears it.",
	pathParams: IdPath,
	body: UpdatePartnerBody,
	response: Partner,
	errors: ["validation_failed", "not_found"],
});

export const importProducts = defineOperation({
	operationId: "importProducts",
	method: "POST",
	path: "/products/import",
	action: "catalog.importProducts",
	access: "profile:write",
	tag: "Products",
	summary: "Bulk-import up to 5,000 products from a JSON array or a CSV file",
	description:
		"The body is either a JSON array of product rows (application/json) or CSV (text/csv, a header line naming the " +
		"columns), at most 5,000 rows. Rows name their partner (`partner`, the partner's name) instead of its id; " +
		"the other columns are those of a product (commodity_codes separated by `;` and specs as JSON text in CSV). " +
		"Each row is validated and created on its own, as POST /products would: " +
		"the answer reports, per row with its line number, whether it was created, already existed (never overwritten) " +
		"or was invalid and why (a partner name that is not on file is unknown_partner, a de-authorized one " +
		"partner_not_authorized). A body that cannot be parsed at all is invalid_import and nothing is written: " +
		"CSV with broken quoting, without a header line, without a partner or name column, with an unknown or repeated " +
		"column; JSON that is not an array. An import without rows or with more than 5,000 is validation_failed. " +
		"In CSV, empty cells are absent fields, blank lines are skipped, and a quoted cell may span lines (its row's " +
		"line is where it starts). Saved products durably request indexing and matching.",
	body: ImportProductsBody,
	bodyTextCheckedPerRow: true,
	response: ImportResult,
	errors: ["validation_failed", "invalid_import", "unsupported_type", "file_too_large"],
});

export const listProducts = defineOperation({
	operationId: "listProducts",
	method: "GET",
	path: "/products",
	action: "catalog.listProducts",
	access: "profile:read",
	tag: "Products",
	summary: "List the catalog, newest first, with filters and cursor paging",
	description:
		"Ordered by created_at descending, then id. Pass nextCursor as cursor for the following page, keeping the same " +
		"filters; a cursor that was tampered with or taken from another listing is validation_failed.",
	query: ProductListQuery,
	response: ProductList,
	errors: ["validation_failed"],
});

export const getProduct = defineOperation({
	operationId: "getProduct",
	method: "GET",
	path: "/products/{id}",
	action: "catalog.getProduct",
	access: "profile:read",
	tag: "Products",
	summary: "Read one catalog product",
	pathParams: IdPath,
	response: Product,
	errors: ["validation_failed", "not_found"],
});

export const createProduct = defineOperation({
	operationId: "createProduct",
	method: "POST",
	path: "/products",
	action: "catalog.createProduct",
	access: "profile:write",
	tag: "Products",
	summary: "Add one product to the catalog",
	description:
		"oem_partner_id and name are required; model, description and source_url default to null, commodity_codes to " +
		"[], specs to {} and rep_status to carried; a new product is active. " +
		"An oem_partner_id that is not one of the company's partners is validation_failed; " +
		"a partner that is not authorized gives partner_not_authorized. " +
		"The combination of partner, name and model is unique (name and model compared case-insensitively, surrounding " +
		"and repeated spaces ignored; no model is a value of its own): " +
		"a repeat is already_exists, names the existing product and never overwrites it. " +
		"Saving durably requests background indexing and staged matching; the response does not wait for them.",
	body: CreateProductBody,
	response: Product,
	status: 201,
	errors: ["validation_failed", "already_exists", "partner_not_authorized"],
});

export const updateProduct = defineOperation({
	operationId: "updateProduct",
	method: "PATCH",
	path: "/products/{id}",
	action: "catalog.updateProduct",
	access: "profile:write",
	tag: "Products",
	summary: "Change a product, discontinue it or reactivate it",
	description:
		"Any non-empty subset of the fields; an absent field is left alone and an explicit null clears model, " +
		"description or source_url. status discontinued takes the product out of matching and active brings it back; " +
		"archive and notification states of its matches are preserved. " +
		"Moving it to another partner requires that partner to be the company's (else validation_failed) and " +
		"authorized (else partner_not_authorized); a change that collides with another product's partner, name and " +
		"model is already_exists. Relevant changes durably request background indexing and staged matching.",
	pathParams: IdPath,
	body: UpdateProductBody,
	response: Product,
	errors: ["validation_failed", "not_found", "already_exists", "partner_not_authorized"],
});

export const getProfile = defineOperation({
	operationId: "getProfile",
	method: "GET",
	path: "/profile",
	action: "catalog.getProfile",
	access: "profile:read",
	tag: "Company profile",
	summary: "Read the company profile (certifications, set-asides, NAICS codes, places served, partners)",
	response: CompanyProfile,
});

export const updateProfile = defineOperation({
	operationId: "updateProfile",
	method: "PATCH",
	path: "/profile",
	action: "catalog.updateProfile",
	access: "profile:write",
	tag: "Company profile",
	summary: "Change the company profile",
	description:
		"Any non-empty subset of company_name, certifications, set_asides, naics_codes and places_served; a list replaces the stored one.",
	body: UpdateProfileBody,
	response: CompanyProfile,
	errors: ["validation_failed"],
});

export const catalogOperations = [
	listPartners,
	createPartner,
	updatePartner,
	importProducts,
	listProducts,
	createProduct,
	getProduct,
	updateProduct,
	getProfile,
	updateProfile,
];
