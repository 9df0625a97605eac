import type { ServiceSchema } from "moleculer";
import { notBuiltYet } from "../../shared/actions.ts";
import {
	createPartner,
	createProduct,
	getProduct,
	getProfile,
	importProducts,
	listPartners,
	listProducts,
	updatePartner,
	updateProduct,
	updateProfile,
} from "../../shared/contract/catalog-operations.ts";

// Catalog: manufacturer partners, products, bulk import and the company profile.
// A stub: every action validates its input and answers not_found; issue 3 builds the behaviour.

export const CatalogService: ServiceSchema = {
	name: "catalog",
	actions: {
		listPartners: notBuiltYet(listPartners),
		createPartner: notBuiltYet(createPartner),
		updatePartner: notBuiltYet(updatePartner),
		importProducts: notBuiltYet(importProducts),
		listProducts: notBuiltYet(listProducts),
		getProduct: notBuiltYet(getProduct),
		createProduct: notBuiltYet(createProduct),
		updateProduct: notBuiltYet(updateProduct),
		getProfile: notBuiltYet(getProfile),
		updateProfile: notBuiltYet(updateProfile),
	},
};

export default CatalogService;
