import type { StorageInfo, UploadConfig } from '@cloudvault/contract/files';
import { formatBytes } from '@cloudvault/contract/format';
import type { PlanId } from '@cloudvault/contract/plans';
import type { PlanCatalogue } from '../plans/plans.catalogue.ts';
import type { FilesRepository } from './files.repository.ts';

/** The numbers the dashboard and the upload zone show, from the user's plan and usage. */
export function createStorageService(deps: {
  files: Pick<FilesRepository, 'storageUsed'>;
  plans: PlanCatalogue;
  planIdOf(userId: string): Promise<string>;
}) {
  return {
    async uploadConfig(userId: string): Promise<UploadConfig> {
      const plan = deps.plans.get(await deps.planIdOf(userId));
      return {
        userMaxFileSize: plan.maxFileSize,
        userMaxFileSizeFormatted: plan.maxFileSize === null ? 'Unlimited' : formatBytes(plan.maxFileSize),
        userPlan: plan.id as PlanId,
      };
    },

    async storageInfo(userId: string): Promise<StorageInfo> {
      const plan = deps.plans.get(await deps.planIdOf(userId));
      const storageUsed = await deps.files.storageUsed(userId);
      return {
        storageUsed,
        storageLimit: plan.storageLimit,
        storageUsedFormatted: formatBytes(storageUsed),
        storageLimitFormatted: formatBytes(plan.storageLimit),
        plan: plan.id as PlanId,
      };
    },
  };
}

export type StorageService = ReturnType<typeof createStorageService>;
